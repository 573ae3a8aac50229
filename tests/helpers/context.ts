import { afterAll, beforeAll, expect } from 'vitest';
import { OffsetClock } from '../../src/clock.ts';
import { games } from '../../src/games/index.ts';
import { silentLogger } from '../../src/log.ts';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { UserError } from '../../src/services/errors.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export function testContext(db: TestDatabase, clock = new OffsetClock()): ServiceContext & { clock: OffsetClock } {
  return { db: db.prisma, clock, log: silentLogger, games };
}

export { SEED_A, SEED_B } from './engine.ts';

/** The server, channel and two players of the service tests that need only a two-player game. */
export const GUILD = '100000000000000001';
export const CHANNEL = '100000000000000002';
export const alice = { id: '200000000000000001', name: 'Alice', bot: false };
export const bob = { id: '200000000000000002', name: 'Bob', bot: false };

/**
 * The test file's own database (cloned from the run's template): created before its tests, dropped
 * after them. Call it at the top level of the file; the object it returns stands for the database
 * once the tests run (`db.prisma`, `db.sql`, `testContext(db)`), and says so if used before.
 */
export function withServiceDb(opts: { poolSize?: number } = {}): TestDatabase {
  let db: TestDatabase | null = null;
  beforeAll(async () => {
    db = await createTestDatabase(opts);
  });
  afterAll(async () => {
    await db?.drop();
  });
  return new Proxy({} as TestDatabase, {
    get(_, key) {
      if (!db) throw new Error(`the test database is created in beforeAll: read .${String(key)} inside a test or a hook`);
      return db[key as keyof TestDatabase];
    },
  });
}

/**
 * Alice challenges Bob to a game of `kind` in CHANNEL and Bob accepts: the game as it starts
 * (`seed` fixes its dice; without it the game draws its own).
 */
export async function twoPlayerGame(ctx: ServiceContext, kind = 'knucklebones', opts: { seed?: string; guildId?: string } = {}) {
  const guildId = opts.guildId ?? GUILD;
  const c = await challenge(ctx, { guildId, channelId: CHANNEL, kind, from: alice, to: bob });
  if (c.type !== 'challenge') throw new Error(`expected a challenge, got ${c.type}`);
  const { game } = await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: bob.id, guildId, ...(opts.seed ? { seed: opts.seed } : {}) });
  return game;
}

/** Runs `fn`, which must be refused with a UserError: that error. */
export async function refused(fn: () => Promise<unknown>): Promise<UserError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return e as UserError;
  }
  throw new Error('expected a refusal');
}

/** A matcher for `rejects.toSatisfy`: a UserError with this code. */
export const userError = (code: string) => (e: unknown) => e instanceof UserError && e.code === code;

/** `p` is refused with a UserError of this code. */
export async function expectCode(p: Promise<unknown>, code: string): Promise<void> {
  await expect(p).rejects.toSatisfy(userError(code));
}
