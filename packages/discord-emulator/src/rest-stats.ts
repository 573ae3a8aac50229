/**
 * What the bot asked of the REST API, per route ("POST /channels/:channelId/messages"): requests,
 * how many were answered 2xx, rate limited (429, global or per route) or refused otherwise. A
 * process driving the emulator from outside (a bench) reads them over the test API
 * (`GET /_test/rest-stats`) to count a burst's requests and 429s.
 */
export interface RouteStats {
  requests: number;
  ok: number;
  /** 429s answered by the rate limiter or by an injected fault. */
  limited: number;
  /** Every other non-2xx answer. */
  failed: number;
}

export class RestStats {
  private routes = new Map<string, RouteStats>();
  private since = Date.now();

  /** One answered request; `route` is "METHOD /pattern", or "METHOD ?" when no route matched. */
  record(route: string, status: number): void {
    let s = this.routes.get(route);
    if (!s) {
      s = { requests: 0, ok: 0, limited: 0, failed: 0 };
      this.routes.set(route, s);
    }
    s.requests++;
    if (status >= 200 && status < 300) s.ok++;
    else if (status === 429) s.limited++;
    else s.failed++;
  }

  reset(): void {
    this.routes = new Map();
    this.since = Date.now();
  }

  snapshot(): { since: string; routes: Record<string, RouteStats>; total: RouteStats } {
    const total: RouteStats = { requests: 0, ok: 0, limited: 0, failed: 0 };
    const routes: Record<string, RouteStats> = {};
    for (const [k, v] of [...this.routes].sort(([a], [b]) => a.localeCompare(b))) {
      routes[k] = { ...v };
      total.requests += v.requests;
      total.ok += v.ok;
      total.limited += v.limited;
      total.failed += v.failed;
    }
    return { since: new Date(this.since).toISOString(), routes, total };
  }
}
