import { OffsetClock } from '../../src/clock.ts';
import { games } from '../../src/games/index.ts';
import { silentLogger } from '../../src/log.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import type { TestDatabase } from './db.ts';

export function testContext(db: TestDatabase, clock = new OffsetClock()): ServiceContext & { clock: OffsetClock } {
  return { db: db.prisma, clock, log: silentLogger, games };
}

export const SEED_A = 'a'.repeat(64);
export const SEED_B = '0123456789abcdef'.repeat(4);
