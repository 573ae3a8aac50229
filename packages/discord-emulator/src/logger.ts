/** The logger the emulator writes to: pino-compatible (`warn(obj, msg)`), console by default. */
export interface EmulatorLogger {
  // The emulator always calls `(details: object, message: string)` (pino's order); any console-like logger fits.
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** pino puts the object first and the message second; the console reads better the other way round. */
const order = (args: unknown[]) => (args.length === 2 && typeof args[0] === 'object' && typeof args[1] === 'string' ? [args[1], args[0]] : args);

export const consoleLogger: EmulatorLogger = {
  info: (...args: unknown[]) => console.log('[emulator]', ...order(args)),
  warn: (...args: unknown[]) => console.warn('[emulator]', ...order(args)),
  error: (...args: unknown[]) => console.error('[emulator]', ...order(args)),
};

export const silentLogger: EmulatorLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
