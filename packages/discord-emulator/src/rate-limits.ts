/**
 * Discord's rate limits, on by default: a global budget per bot token (50 requests a second, which
 * interaction endpoints do not count against) and per-route buckets keyed by the route's major
 * parameter (the channel, the guild, or the webhook and its token), each announced in the
 * `X-RateLimit-*` headers of every answer and enforced with Discord's 429 body.
 *
 * Discord does not publish its per-route figures (bots are told to read the headers); the default
 * table holds the figures bots observe for the routes that matter, and any route not in it gets a
 * generous bucket so that only the global budget binds. Windows are fixed and run on real time (not
 * the emulator's clock: advancing the clock does not refill a bucket).
 */
import { createHash } from 'node:crypto';
import type { RequestContext, RouteMatch } from './http.ts';

export interface RouteLimit {
  /** "POST /channels/:channelId/messages": a method and a route pattern as the emulator registers it (`*` for any method). */
  route: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitOptions {
  /** Requests per second across every route but interaction callbacks and interaction webhooks (default 50). */
  globalPerSecond?: number;
  /** Per-route buckets, first match wins; replaces the default table. */
  routes?: RouteLimit[];
  /** Routes not in the table (default 50 per second per route and major parameter). */
  fallback?: { limit: number; windowMs: number };
}

export const DEFAULT_ROUTE_LIMITS: RouteLimit[] = [
  { route: 'POST /channels/:channelId/messages', limit: 5, windowMs: 5_000 },
  { route: 'PATCH /channels/:channelId/messages/:messageId', limit: 5, windowMs: 5_000 },
  { route: 'DELETE /channels/:channelId/messages/:messageId', limit: 5, windowMs: 1_000 },
  { route: 'POST /channels/:channelId/typing', limit: 5, windowMs: 5_000 },
  { route: '* /webhooks/:applicationId/:token', limit: 5, windowMs: 2_000 },
  { route: '* /webhooks/:applicationId/:token/messages/:messageId', limit: 5, windowMs: 2_000 },
  { route: 'POST /users/@me/channels', limit: 50, windowMs: 1_000 },
];

interface Window {
  count: number;
  resetAt: number;
}

export type LimitDecision =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; status: 429; headers: Record<string, string>; body: { message: string; retry_after: number; global: boolean } };

/** Interaction endpoints are not bound to the global limit (Discord's documentation). */
function exemptFromGlobal(pattern: string): boolean {
  return pattern.startsWith('/interactions/') || pattern.startsWith('/webhooks/:applicationId/:token');
}

const MAJOR_PARAMS = ['channelId', 'guildId'] as const;

export class RateLimiter {
  private readonly global: Window = { count: 0, resetAt: 0 };
  private readonly buckets = new Map<string, Window>();
  private readonly globalPerSecond: number;
  private readonly table: RouteLimit[];
  private readonly fallback: { limit: number; windowMs: number };
  /** 429s answered so far (global and per route): what a test of a burst may report. */
  readonly counts = { global: 0, route: 0 };

  constructor(opts: RateLimitOptions = {}, private readonly now: () => number = Date.now) {
    this.globalPerSecond = opts.globalPerSecond ?? 50;
    this.table = opts.routes ?? DEFAULT_ROUTE_LIMITS;
    this.fallback = opts.fallback ?? { limit: 50, windowMs: 1_000 };
  }

  /** Counts one request of the bot against its buckets: the headers to send, or the 429 to send instead. */
  take(method: string, match: RouteMatch<RequestContext>): LimitDecision {
    const now = this.now();
    const pattern = match.route.pattern;
    const spec = this.table.find((r) => {
      const [m, p] = r.route.split(/\s+/) as [string, string];
      return (m === '*' || m === method) && p === pattern;
    }) ?? this.fallback;
    const template = `${method} ${pattern}`;
    const hash = createHash('sha1').update(template).digest('hex').slice(0, 32);
    // Webhooks are keyed by webhook and token, an interaction's callback by the interaction.
    const major = pattern.startsWith('/webhooks/')
      ? `${match.params.applicationId}/${match.params.token}`
      : pattern.startsWith('/interactions/')
        ? (match.params.interactionId ?? '')
        : (MAJOR_PARAMS.map((k) => match.params[k]).find((v) => v !== undefined) ?? '');
    const key = `${hash}:${major}`;

    if (!exemptFromGlobal(pattern)) {
      if (now >= this.global.resetAt) {
        this.global.count = 0;
        this.global.resetAt = now + 1_000;
      }
      if (this.global.count >= this.globalPerSecond) {
        this.counts.global++;
        const retry = (this.global.resetAt - now) / 1000;
        return {
          ok: false,
          status: 429,
          headers: { 'Retry-After': String(Math.ceil(retry)), 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' },
          body: { message: 'You are being rate limited.', retry_after: round3(retry), global: true },
        };
      }
    }

    // One bucket per interaction and webhook token adds up over a long session: drop the lapsed ones.
    if (this.buckets.size > 10_000) for (const [k, b] of this.buckets) if (now >= b.resetAt) this.buckets.delete(k);
    let w = this.buckets.get(key);
    if (!w || now >= w.resetAt) {
      w = { count: 0, resetAt: now + spec.windowMs };
      this.buckets.set(key, w);
    }
    const resetAfter = (w.resetAt - now) / 1000;
    const headers: Record<string, string> = {
      'X-RateLimit-Limit': String(spec.limit),
      'X-RateLimit-Remaining': String(Math.max(0, spec.limit - w.count - 1)),
      'X-RateLimit-Reset': (w.resetAt / 1000).toFixed(3),
      'X-RateLimit-Reset-After': resetAfter.toFixed(3),
      'X-RateLimit-Bucket': hash,
    };
    if (w.count >= spec.limit) {
      this.counts.route++;
      return {
        ok: false,
        status: 429,
        headers: { ...headers, 'X-RateLimit-Remaining': '0', 'Retry-After': String(Math.ceil(resetAfter)), 'X-RateLimit-Scope': 'user' },
        body: { message: 'You are being rate limited.', retry_after: round3(resetAfter), global: false },
      };
    }
    w.count++;
    if (!exemptFromGlobal(pattern)) this.global.count++;
    return { ok: true, headers };
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
