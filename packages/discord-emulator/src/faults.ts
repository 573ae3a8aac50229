/**
 * Fault injection for reliability tests: queued failures returned to the next matching bot requests,
 * with Discord's 429 body and rate-limit headers.
 */
import { createHash } from 'node:crypto';
import { routePatternMatches, type Reply } from './http.ts';

export interface FaultSpec {
  /** "POST /channels/:id/messages", "PATCH /webhooks/:app/:token/messages/:id", "* /channels/:id/messages" or "*". */
  route: string;
  /**
   * The error to answer with; omitted with `delayMs` or `arriveAfterMs`, the request succeeds as
   * usual, late: give exactly one of the three.
   */
  status?: 429 | 500 | 502 | 503;
  /**
   * The request is handled at once, but its answer reaches the bot only this many milliseconds later
   * (network latency on the way back, e.g. to open the window between a reply being visible to users
   * and the bot learning its message id).
   */
  delayMs?: number;
  /**
   * The request reaches Discord only this many milliseconds after it was sent, and is handled then
   * (network latency on the way there): a request sent later, on another connection, can overtake
   * it, e.g. an interaction's answer that edits a message before an edit of it sent earlier.
   */
  arriveAfterMs?: number;
  /** 429 only: seconds to wait (float, as Discord's retry_after). Default 0.05. */
  retryAfter?: number;
  /** 429 only: a global rate limit instead of a per-route one. */
  global?: boolean;
  /** How many matching requests fail (default 1). */
  count?: number;
}

export interface QueuedFault extends Required<Omit<FaultSpec, 'retryAfter' | 'global' | 'status' | 'delayMs' | 'arriveAfterMs'>> {
  id: number;
  /** null: a delay, not an error. */
  status: 429 | 500 | 502 | 503 | null;
  delayMs: number;
  arriveAfterMs: number;
  retryAfter: number;
  global: boolean;
  /** How many times this fault has fired. */
  fired: number;
}

export class Faults {
  private nextId = 1;
  readonly queue: QueuedFault[] = [];

  add(spec: FaultSpec): QueuedFault {
    const fault: QueuedFault = {
      id: this.nextId++,
      route: spec.route,
      status: spec.status ?? null,
      delayMs: spec.delayMs ?? 0,
      arriveAfterMs: spec.arriveAfterMs ?? 0,
      retryAfter: spec.retryAfter ?? 0.05,
      global: spec.global ?? false,
      count: spec.count ?? 1,
      fired: 0,
    };
    this.queue.push(fault);
    return fault;
  }

  clear(): number {
    return this.queue.splice(0).length;
  }

  /**
   * The first queued fault matching this request, consuming one use of it: `{ reply }` for an
   * injected error, `{ delayMs, arriveAfterMs }` for a request to handle normally, late.
   */
  take(method: string, path: string): { reply: Reply } | { delayMs: number; arriveAfterMs: number } | undefined {
    const i = this.queue.findIndex((f) => routePatternMatches(f.route, method, path));
    const fault = i >= 0 ? this.queue[i] : undefined;
    if (!fault) return undefined;
    fault.fired++;
    if (fault.fired >= fault.count) this.queue.splice(i, 1);
    if (fault.status === null) return { delayMs: fault.delayMs, arriveAfterMs: fault.arriveAfterMs };
    return { reply: this.errorReply({ ...fault, status: fault.status }, method) };
  }

  private errorReply(fault: QueuedFault & { status: 429 | 500 | 502 | 503 }, method: string): Reply {
    if (fault.status === 429) {
      const bucket = createHash('sha1').update(`${method} ${fault.route}`).digest('hex').slice(0, 32);
      const retry = fault.retryAfter;
      const headers: Record<string, string> = {
        'Retry-After': String(retry),
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': ((Date.now() + retry * 1000) / 1000).toFixed(3),
        'X-RateLimit-Reset-After': retry.toFixed(3),
        'X-RateLimit-Bucket': bucket,
        'X-RateLimit-Scope': fault.global ? 'global' : 'user',
      };
      if (fault.global) headers['X-RateLimit-Global'] = 'true';
      return { status: 429, json: { message: 'You are being rate limited.', retry_after: retry, global: fault.global }, headers };
    }
    const text: string = fault.status === 500 ? 'Internal Server Error' : fault.status === 502 ? 'Bad Gateway' : 'Service Unavailable';
    return { status: fault.status, json: { message: `${fault.status}: ${text}`, code: 0 } };
  }
}
