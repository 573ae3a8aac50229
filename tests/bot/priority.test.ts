import { afterEach, describe, expect, it, vi } from 'vitest';
import { InteractionPriority } from '../../src/bot/priority.ts';

/**
 * The outbox gives way to interactions (src/bot/priority.ts): with none in flight a delivery
 * starts at once; while some are, deliveries start one at a time at the busy rate, in order, and
 * all that wait start as soon as the last interaction is done. Slowed, never stopped.
 */
afterEach(() => {
  vi.useRealTimers();
});

const settled = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('interactions first', () => {
  it('starts every delivery at once while no interaction is in flight', async () => {
    const p = new InteractionPriority(10);
    const started: number[] = [];
    await Promise.all([1, 2, 3, 4].map((i) => p.turn().then(() => started.push(i))));
    expect(started).toEqual([1, 2, 3, 4]);
    expect(p.queued).toBe(0);
  });

  it('while an interaction is in flight, starts one delivery per 1000 / rate ms, in order', async () => {
    vi.useFakeTimers();
    const p = new InteractionPriority(10); // one start each 100 ms
    p.enter();
    const started: number[] = [];
    for (const i of [1, 2, 3]) void p.turn().then(() => started.push(i));
    await settled();
    // The first starts at once (nothing started in the last 100 ms); the others wait their turn.
    expect(started).toEqual([1]);
    expect(p.queued).toBe(2);
    await vi.advanceTimersByTimeAsync(99);
    expect(started).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toEqual([1, 2, 3]);
    expect(p.queued).toBe(0);
  });

  it('under interactions that never stop, every delivery still starts (at the busy rate)', async () => {
    vi.useFakeTimers();
    const p = new InteractionPriority(50);
    p.enter();
    let started = 0;
    for (let i = 0; i < 100; i++) void p.turn().then(() => started++);
    // One interaction ends while another begins, again and again: the count never reaches zero.
    for (let t = 0; t < 2000; t += 10) {
      p.enter();
      p.leave();
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(p.interactions).toBe(1);
    expect(started).toBe(100);
  });

  it('releases every waiting delivery once the last interaction is done', async () => {
    vi.useFakeTimers();
    const p = new InteractionPriority(1);
    p.enter();
    p.enter();
    let started = 0;
    for (let i = 0; i < 5; i++) void p.turn().then(() => started++);
    await settled();
    expect(started).toBe(1);
    p.leave();
    await settled();
    expect(started).toBe(1);
    p.leave();
    await settled();
    expect(started).toBe(5);
  });

  it('counts an interaction until its handling settles, rejected or not', async () => {
    const p = new InteractionPriority(10);
    let finish!: () => void;
    const ok = p.track(() => new Promise<void>((r) => (finish = r)));
    const failed = p.track(() => Promise.reject(new Error('x')));
    expect(p.interactions).toBe(2);
    await expect(failed).rejects.toThrow('x');
    expect(p.interactions).toBe(1);
    finish();
    await ok;
    expect(p.interactions).toBe(0);
  });

  it('a rate of 0 gives no priority', async () => {
    const p = new InteractionPriority(0);
    p.enter();
    let started = 0;
    await Promise.all([1, 2, 3].map(() => p.turn().then(() => started++)));
    expect(started).toBe(3);
  });
});
