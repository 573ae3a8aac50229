import { RESTEvents, type Client } from 'discord.js';

/**
 * Remembers when Discord accepted each interaction's first callback (the reply), from the REST
 * client's own response events, so the router can report "interaction received -> reply sent"
 * without counting the bookkeeping it does after replying.
 */
export class ReplyTimer {
  private readonly repliedAt = new Map<string, bigint>();

  constructor(client: Client) {
    client.rest.on(RESTEvents.Response, (request) => {
      const m = /^\/interactions\/(\d+)\/[^/]+\/callback/.exec(String(request.path));
      if (m && !this.repliedAt.has(m[1]!)) this.repliedAt.set(m[1]!, process.hrtime.bigint());
    });
  }

  /** Milliseconds from `started` to the reply of `interactionId`, or null; forgets the entry. */
  take(interactionId: string, started: bigint): number | null {
    const at = this.repliedAt.get(interactionId);
    this.repliedAt.delete(interactionId);
    return at === undefined ? null : Number(at - started) / 1e6;
  }
}
