import { createHash } from 'node:crypto';
import type { APIMessage } from 'discord.js';
import { expect } from 'vitest';
import { OffsetClock } from '../../src/clock.ts';
import { commands } from '../../commands/index.ts';
import { deployCommands } from '../../commands/deploy.ts';
import { games } from '../../src/games/index.ts';
import { startBot, type Bot } from '../../src/bot/index.ts';
import { silentLogger as emulatorSilent, type EmulatorClient, type InteractionResult, type RateLimitOptions } from '@stonehall/discord-emulator';
import { startDemoEmulator, type DemoEmulator } from '../../src/dev/demo-server.ts';
import { createLogger, silentLogger } from '../../src/log.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

/**
 * The real thing, end to end: a migrated Postgres database of the test file's own, the local
 * Discord emulator, and the real discord.js bot connected to it over HTTP and WebSocket.
 * Tests act as users through the emulator's test API, exactly as a person with curl would.
 */
export interface Harness {
  db: TestDatabase;
  emulator: DemoEmulator;
  api: EmulatorClient;
  bot: Bot;
  clock: OffsetClock;
  /** Runs due jobs and delivers the outbox until both are idle. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Seeds drawn in a fixed order: the SHA-256 of `${prefix}-0`, `${prefix}-1`, ... (a test plays the same games on every run). */
export function seedSequence(prefix: string): () => string {
  let drawn = 0;
  return () => createHash('sha256').update(`${prefix}-${drawn++}`).digest('hex');
}

/** The bot logs nothing in tests; HARNESS_LOG=error (or another pino level) prints its log, to see why an interaction failed. */
export async function startHarness(
  opts: {
    interactionTimeoutMs?: number;
    /**
     * The seeds of games, collection purchases and rolls. By default a fixed sequence (the same in
     * every harness): a test then plays the same games on every run, so a test that holds for its
     * seeds holds whatever the machine's load, and one that does not fails every time.
     */
    seeds?: () => string;
    /** Time stands still but for advanceClock (timers of seconds that a loaded machine must not let lapse). */
    frozenClock?: boolean;
    /** Puts something between the bot and the emulator's REST API (a recording proxy): gets the emulator's base URL, returns the one the bot uses. */
    restVia?: (emulatorUrl: string) => Promise<string>;
    /** Registers the slash commands through the same route as the bot's requests. */
    deployVia?: boolean;
    /** Other games and commands than Stonehall's (tests/fixtures/registry.ts adds the fixture game Nim). */
    games?: typeof games;
    commands?: typeof commands;
    /**
     * Discord's rate limits in the emulator: off unless a test is about them (true: Discord's
     * figures; an object: other figures). Their buckets run on real time, so with them on a match
     * waits seconds on every sixth board edit or DM; HARNESS_RATE_LIMITS=1 turns them on for every
     * file, to see the whole suite under Discord's limits.
     */
    rateLimits?: boolean | RateLimitOptions;
    /** Outbox deliveries started per second while interactions are in flight (src/bot/priority.ts; default the bot's). */
    outboxBusyRate?: number;
  } = {},
): Promise<Harness> {
  const db = await createTestDatabase();
  const clock = new OffsetClock(opts.frozenClock ? { frozenAt: new Date() } : {});
  // Discord's 3 s answer window is the emulator's default and is tested in tests/emulator; here it
  // is longer because CI shares two cores between parallel test files, and a late answer under
  // that load is not what these tests are about (the bench measures latency).
  const limits = opts.rateLimits ?? process.env.HARNESS_RATE_LIMITS === '1';
  const emulator = await startDemoEmulator({
    clock,
    logger: emulatorSilent,
    interactionTimeoutMs: opts.interactionTimeoutMs ?? 10_000,
    rateLimits: limits === true ? {} : limits,
  });
  const apiBase = opts.restVia ? `${await opts.restVia(emulator.url)}/api` : emulator.apiBase;
  const body = opts.commands ? Object.values(opts.commands).map((c) => c.data.toJSON()) : undefined;
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, guildId: emulator.guildId, apiBase: opts.deployVia ? apiBase : emulator.apiBase, ...(body ? { body } : {}) });
  const seeds = opts.seeds ?? seedSequence('stonehall-harness');
  const bot = await startBot({
    ctx: { db: db.prisma, clock, log: process.env.HARNESS_LOG ? createLogger(process.env.HARNESS_LOG) : silentLogger, seeds },
    games: opts.games ?? games,
    commands: opts.commands ?? commands,
    token: emulator.botToken,
    apiBase,
    ticks: false,
    ...(opts.outboxBusyRate !== undefined ? { outboxBusyRate: opts.outboxBusyRate } : {}),
  });
  clock.onAdvance(() => bot.settle());
  return {
    db,
    emulator,
    api: emulator.client,
    bot,
    clock,
    settle: () => bot.settle(),
    async close() {
      await bot.stop();
      await emulator.close();
      await db.drop();
    },
  };
}

type Button = { type: number; custom_id?: string; label?: string; disabled?: boolean; url?: string };

export function buttons(message: APIMessage): Button[] {
  return (message.components ?? []).flatMap((row) => ((row as { components?: Button[] }).components ?? []));
}

export function button(message: APIMessage, pred: (b: Button) => boolean): Button {
  const b = buttons(message).find(pred);
  if (!b) throw new Error(`no such button on message ${message.id}: ${JSON.stringify(buttons(message).map((x) => x.custom_id ?? x.label))}`);
  return b;
}

export const EPHEMERAL = 64;

export function text(message: APIMessage | undefined): string {
  if (!message) return '';
  return [message.content, ...(message.embeds ?? []).flatMap((e) => [e.title, e.description, ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), e.footer?.text])]
    .filter(Boolean)
    .join('\n');
}

/** The demo user alias ("alice") of a Discord user id. */
export function aliasOf(h: Harness, userId: string): string {
  const hit = Object.entries(h.emulator.users).find(([, id]) => id === userId);
  if (!hit) throw new Error(`user ${userId} is not one of the demo users`);
  return hit[0];
}

/** Runs a slash command as `user` in `channel` (an alias, a channel name or "dm"). */
export function runCommand(h: Harness, user: string, channel: string, name: string, options: Record<string, unknown>): Promise<InteractionResult> {
  return h.api.command({ user, channel, name, options });
}

/** Expects the interaction to be refused with an ephemeral message matching `pattern`. */
export async function expectRefused(p: Promise<InteractionResult>, pattern: RegExp): Promise<void> {
  const r = await p;
  expect(r.response?.message?.flags).toBe(EPHEMERAL);
  expect(r.response?.message?.content).toMatch(pattern);
}
