/**
 * Discord snowflakes: 64-bit ids, (ms since the Discord epoch) << 22 | worker << 17 | process << 12 | increment.
 * Ids are strings in the API. The emulator mints them from its clock, so an id's timestamp matches the
 * emulated time of the object it names (as discord.js computes `createdAt` from the id).
 */
export const DISCORD_EPOCH = 1_420_070_400_000n;

export function snowflakeFrom(timestampMs: number, increment = 0, workerId = 1, processId = 0): string {
  const ms = BigInt(Math.floor(timestampMs)) - DISCORD_EPOCH;
  if (ms < 0n) throw new RangeError('timestamp before the Discord epoch');
  const id = (ms << 22n) | (BigInt(workerId & 0x1f) << 17n) | (BigInt(processId & 0x1f) << 12n) | BigInt(increment & 0xfff);
  return id.toString();
}

export function timestampOf(snowflake: string): number {
  return Number((BigInt(snowflake) >> 22n) + DISCORD_EPOCH);
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 1n << 64n;
}

/** Compares two snowflakes numerically (they are not fixed width). */
export function compareSnowflakes(a: string, b: string): number {
  // Digit strings of one length compare as text; without leading zeros, the longer is the larger.
  if (a.length === b.length) return a < b ? -1 : a > b ? 1 : 0;
  if (a[0] !== '0' && b[0] !== '0') return a.length < b.length ? -1 : 1;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Mints strictly increasing snowflakes from a time source (the emulator clock). */
export class SnowflakeGenerator {
  private lastMs = 0;
  private increment = 0;

  constructor(
    private readonly now: () => number,
    private readonly workerId = 1,
    private readonly processId = 0,
  ) {}

  next(): string {
    let ms = Math.floor(this.now());
    if (ms <= this.lastMs) {
      ms = this.lastMs;
      this.increment++;
      if (this.increment > 0xfff) {
        ms = this.lastMs + 1;
        this.increment = 0;
      }
    } else {
      this.increment = 0;
    }
    this.lastMs = ms;
    return snowflakeFrom(ms, this.increment, this.workerId, this.processId);
  }
}
