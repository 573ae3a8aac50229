/**
 * Interactions first. The bot answers clicks and delivers the outbox in one event loop, so under
 * load a click's answer waits behind DMs and board edits being rendered and sent. Discord gives
 * an interaction 3 seconds; an outbox row (the next player's DM, a retired DM's buttons) can wait
 * a little, and is never lost by waiting (it stays pending in Postgres).
 *
 * So while at least one interaction is being handled, the outbox starts at most `busyRate`
 * deliveries a second (the rows waiting are started in order, one every 1000 / busyRate ms); as
 * soon as no interaction is in flight, every waiting delivery starts at once. Deliveries are
 * slowed, never stopped: under clicks that never pause, rows still go out at `busyRate` a second.
 */
export class InteractionPriority {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStart = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly gapMs: number;

  /** `busyRate`: deliveries started per second while interactions are in flight (0: no priority). */
  constructor(busyRate: number) {
    this.gapMs = busyRate > 0 ? 1000 / busyRate : 0;
  }

  /** Interactions being handled now. */
  get interactions(): number {
    return this.inFlight;
  }

  /** Deliveries waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** An interaction arrived; `leave` when it is answered and done. */
  enter(): void {
    this.inFlight++;
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) this.releaseAll();
  }

  /** Runs `fn` as one interaction: counted from now until its promise settles. */
  track<T>(fn: () => Promise<T>): Promise<T> {
    this.enter();
    let p: Promise<T>;
    try {
      p = fn();
    } catch (err) {
      this.leave();
      throw err;
    }
    return p.finally(() => this.leave());
  }

  /** Resolves when a delivery may start. */
  turn(): Promise<void> {
    if (this.gapMs === 0 || (this.inFlight === 0 && this.waiting.length === 0)) return Promise.resolve();
    const now = performance.now();
    if (this.waiting.length === 0 && now >= this.nextStart) {
      this.nextStart = now + this.gapMs;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.arm();
    });
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const next = this.waiting.shift();
        if (next) {
          this.nextStart = performance.now() + this.gapMs;
          next();
        }
        if (this.waiting.length) this.arm();
      },
      Math.max(0, this.nextStart - performance.now()),
    );
  }

  private releaseAll(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
