/**
 * The emulator's sense of time: timestamps, snowflakes, interaction token lifetimes and nonce windows
 * all read `now()`. The test API moves it forward (`POST /_test/clock/advance`) and waits for whoever
 * listens (a bot's scheduler), so a bot's 24-hour deadline is testable in seconds.
 *
 * Any object with this shape will do: a bot that keeps its own offset clock passes it in, so the bot
 * and the emulator agree on the time.
 */
export interface EmulatorClock {
  now(): Date;
  /** How far (ms) this clock runs ahead of the wall clock. */
  readonly offset: number;
  /** Moves time forward by `ms` (never back) and resolves once every listener has finished. */
  advance(ms: number): Promise<void>;
  /** Calls `listener` on every advance (and waits for it); returns the function that stops it. */
  onAdvance(listener: (ms: number) => Promise<void> | void): () => void;
}

/** The default clock: the wall clock plus an offset that only grows. */
export class OffsetClock implements EmulatorClock {
  private offsetMs: number;
  private listeners: Array<(ms: number) => Promise<void> | void> = [];
  constructor(initialOffsetMs = 0) {
    this.offsetMs = initialOffsetMs;
  }
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  get offset(): number {
    return this.offsetMs;
  }
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('can only advance by a non-negative number of ms');
    this.offsetMs += ms;
    for (const l of this.listeners) await l(ms);
  }
  onAdvance(listener: (ms: number) => Promise<void> | void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((x) => x !== listener);
    };
  }
}
