/**
 * The bot's sense of time. Production uses the wall clock; test mode (STONEHALL_TEST_CLOCK=1, or
 * the embedded emulator) uses an offset clock that the emulator's test API can advance, so a
 * 24-hour forfeit is testable in seconds. Everything that compares against "now" (deadlines,
 * due jobs, outbox retries) asks a Clock, never Date.now() directly.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class OffsetClock implements Clock {
  private offsetMs = 0;
  private listeners: Array<(ms: number) => Promise<void> | void> = [];
  /**
   * `frozenAt`: time stands still there and moves only by advance() (a test of a game whose
   * timers run in seconds, where a slow machine must not let a window lapse between two steps).
   */
  constructor(private readonly opts: { frozenAt?: Date } = {}) {}
  now(): Date {
    return new Date((this.opts.frozenAt?.getTime() ?? Date.now()) + this.offsetMs);
  }
  get offset(): number {
    return this.offsetMs;
  }
  /** Moves time forward and waits for every listener (e.g. a scheduler sweep) to finish. */
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

/**
 * A test clock that follows another process's offset clock: a bot started as a separate process
 * against the emulator (reliability tests) reads the emulator's offset before each tick
 * (STONEHALL_CLOCK_URL, the emulator's address; its test API serves GET /_test/clock).
 */
export class RemoteClock implements Clock {
  private offsetMs = 0;
  constructor(private readonly url: string) {}
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  async sync(): Promise<void> {
    const res = await fetch(`${this.url.replace(/\/+$/, '')}/_test/clock`);
    if (!res.ok) throw new Error(`clock sync failed: ${res.status}`);
    const body = (await res.json()) as { offsetMs: number };
    this.offsetMs = body.offsetMs;
  }
}
