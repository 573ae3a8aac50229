import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = process.env.LOG_LEVEL ?? 'info', name = 'stonehall'): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}

/** A logger that drops everything (tests that assert on behaviour, not logs). */
export const silentLogger: Logger = pino({ level: 'silent' });

/** node-cron's logger interface, routed to pino (its "task still running" overlap notices are debug: a long sweep simply skips a tick). */
export function cronLogger(log: Logger) {
  return {
    info: (m: string) => log.debug({ component: 'node-cron' }, m),
    warn: (m: string) => log.debug({ component: 'node-cron' }, m),
    error: (m: string | Error, err?: Error) => log.error({ component: 'node-cron', err: err ?? m }, 'node-cron error'),
    debug: (m: string | Error) => log.debug({ component: 'node-cron' }, String(m)),
  };
}
