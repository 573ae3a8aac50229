/**
 * The gateway: WebSocket sessions speaking Discord's v10 JSON protocol (HELLO, IDENTIFY → READY +
 * GUILD_CREATE, heartbeats, RESUME with replay, INVALID_SESSION), and dispatch of events honouring
 * intents. Sessions outlive their socket so a dropped client can resume and receive what it missed.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  GatewayGuildCreateDispatchData,
  GatewayGuildMembersChunkDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteDispatchData,
  GatewayMessageUpdateDispatchData,
  GatewayReadyDispatchData,
  GatewayThreadCreateDispatchData,
  GatewayChannelUpdateDispatchData,
  GatewayChannelDeleteDispatchData,
  GatewayThreadDeleteDispatchData,
  GatewayGuildRoleUpdateDispatchData,
} from 'discord-api-types/v10';
import { WebSocketServer, type WebSocket } from 'ws';
import { apiChannel, apiCurrentUser, apiGatewayGuild, apiMember, apiMessage, apiRole } from './serialize.ts';
import type { EmulatorEvent, EmulatorState, MessageRecord } from './state.ts';
import type { EmulatorLogger } from './logger.ts';

export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildModeration: 1 << 2,
  GuildPresences: 1 << 8,
  GuildMessages: 1 << 9,
  GuildMessageReactions: 1 << 10,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

/** Every intent bit Discord defines today (others are invalid: close 4013). */
const KNOWN_INTENTS = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 20) | (1 << 21) | (1 << 24) | (1 << 25);

export const HEARTBEAT_INTERVAL = 41_250;
const REPLAY_BUFFER = 1000;
/** How long a disconnected session stays resumable (real time). */
const RESUMABLE_FOR_MS = 10 * 60_000;

interface GatewayPayload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

export interface Session {
  id: string;
  intents: number;
  shard: [number, number] | null;
  seq: number;
  buffer: GatewayPayload[];
  socket: WebSocket | null;
  disconnectedAt: number | null;
  createdAt: number;
  presence: unknown;
}

interface Connection {
  socket: WebSocket;
  session: Session | null;
}

export interface DisconnectOptions {
  /** close (default): close with `code`; terminate: drop the TCP connection (client sees 1006);
   *  reconnect: send op 7 RECONNECT; invalidate: send op 9 INVALID_SESSION (d=false) and forget the session. */
  mode?: 'close' | 'terminate' | 'reconnect' | 'invalidate';
  code?: number;
}

export interface SessionInfo {
  id: string;
  connected: boolean;
  intents: number;
  seq: number;
  shard: [number, number] | null;
}

/** Fields Discord sends that discord-api-types does not list (tracing, fields of user accounts). */
type Extra = { [field: string]: unknown };

/**
 * Every dispatch the emulator sends, typed by discord-api-types: a missing or mistyped field fails
 * the type check. INTERACTION_CREATE's envelope is typed where it is built (interactions.ts); here
 * it stays loose, since the test API's raw interactions carry whatever a hostile client would send.
 */
export interface DispatchData {
  READY: GatewayReadyDispatchData & Extra;
  RESUMED: Extra;
  GUILD_CREATE: GatewayGuildCreateDispatchData & Extra;
  GUILD_MEMBERS_CHUNK: GatewayGuildMembersChunkDispatchData;
  MESSAGE_CREATE: GatewayMessageCreateDispatchData;
  MESSAGE_UPDATE: GatewayMessageUpdateDispatchData;
  MESSAGE_DELETE: GatewayMessageDeleteDispatchData;
  THREAD_CREATE: GatewayThreadCreateDispatchData;
  THREAD_DELETE: GatewayThreadDeleteDispatchData;
  CHANNEL_UPDATE: GatewayChannelUpdateDispatchData;
  CHANNEL_DELETE: GatewayChannelDeleteDispatchData;
  GUILD_ROLE_UPDATE: GatewayGuildRoleUpdateDispatchData;
  INTERACTION_CREATE: Record<string, unknown>;
}
export type DispatchName = keyof DispatchData;

export class Gateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  readonly sessions = new Map<string, Session>();
  private readonly connections = new Set<Connection>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly state: EmulatorState,
    private readonly opts: { botToken: string; logger: EmulatorLogger; gatewayUrl: () => string },
  ) {
    this.unsubscribe = state.on((e) => this.onStateEvent(e));
  }

  /** Hands an HTTP upgrade on /gateway to the WebSocket server. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/gateway' && url.pathname !== '/gateway/') {
      socket.write('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, url));
  }

  private onConnection(ws: WebSocket, url: URL): void {
    const conn: Connection = { socket: ws, session: null };
    this.connections.add(conn);
    const v = url.searchParams.get('v');
    const encoding = url.searchParams.get('encoding') ?? 'json';
    const compress = url.searchParams.get('compress');
    ws.on('close', (code) => this.onClose(conn, code));
    ws.on('error', () => undefined);
    if (v !== null && v !== '10' && v !== '9') {
      ws.close(4012, 'Invalid API version.');
      return;
    }
    if (encoding !== 'json' || compress) {
      this.opts.logger.warn({ encoding, compress }, 'emulator gateway supports only encoding=json without compression');
      ws.close(4002, 'Error while decoding payload.');
      return;
    }
    this.send(ws, { op: Op.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL, _trace: ['["stonehall-emulator",{"micros":0}]'] }, s: null, t: null });
    ws.on('message', (data, isBinary) => this.onMessage(conn, data as Buffer, isBinary));
  }

  private send(ws: WebSocket, payload: GatewayPayload): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
  }

  private onMessage(conn: Connection, data: Buffer, isBinary: boolean): void {
    let payload: { op?: unknown; d?: unknown };
    try {
      if (isBinary) throw new Error('binary');
      payload = JSON.parse(data.toString('utf8')) as { op?: unknown; d?: unknown };
      if (typeof payload !== 'object' || payload === null) throw new Error('not an object');
    } catch {
      conn.socket.close(4002, 'Error while decoding payload.');
      return;
    }
    const d = payload.d as Record<string, unknown> | null | undefined;
    switch (payload.op) {
      case Op.Heartbeat:
        this.send(conn.socket, { op: Op.HeartbeatAck, d: null, s: null, t: null });
        return;
      case Op.Identify:
        this.identify(conn, d);
        return;
      case Op.Resume:
        this.resume(conn, d);
        return;
      case Op.PresenceUpdate:
      case Op.VoiceStateUpdate:
      case Op.RequestGuildMembers:
        if (!conn.session) {
          conn.socket.close(4003, 'Not authenticated.');
          return;
        }
        if (payload.op === Op.PresenceUpdate) conn.session.presence = d;
        if (payload.op === Op.RequestGuildMembers) this.requestGuildMembers(conn.session, d);
        return;
      default:
        conn.socket.close(4001, 'Unknown opcode.');
    }
  }

  private identify(conn: Connection, d: Record<string, unknown> | null | undefined): void {
    if (conn.session) {
      conn.socket.close(4005, 'Already authenticated.');
      return;
    }
    if (!d || typeof d !== 'object') {
      conn.socket.close(4002, 'Error while decoding payload.');
      return;
    }
    const token = typeof d.token === 'string' ? d.token.replace(/^Bot\s+/i, '') : '';
    if (token !== this.opts.botToken) {
      conn.socket.close(4004, 'Authentication failed.');
      return;
    }
    const intents = d.intents;
    if (typeof intents !== 'number' || !Number.isInteger(intents) || intents < 0 || (intents & ~KNOWN_INTENTS) !== 0) {
      conn.socket.close(4013, 'Invalid intent(s).');
      return;
    }
    let shard: [number, number] | null = null;
    if (d.shard !== undefined) {
      const s = d.shard;
      if (!Array.isArray(s) || s.length !== 2 || !Number.isInteger(s[0]) || !Number.isInteger(s[1]) || s[1] < 1 || s[0] < 0 || s[0] >= s[1]) {
        conn.socket.close(4010, 'Invalid shard.');
        return;
      }
      shard = [s[0] as number, s[1] as number];
    }
    this.prune();
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      intents,
      shard,
      seq: 0,
      buffer: [],
      socket: conn.socket,
      disconnectedAt: null,
      createdAt: Date.now(),
      presence: d.presence ?? null,
    };
    this.sessions.set(session.id, session);
    conn.session = session;
    const app = this.state.application;
    const guilds = [...this.state.guilds.values()].filter((g) => this.onShard(session, g.id));
    const ready: DispatchData['READY'] = {
      v: 10,
      user_settings: {},
      user: apiCurrentUser(this.state.botUser),
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.opts.gatewayUrl(),
      application: { id: app.id, flags: app.flags, flags_new: String(app.flags) },
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth: {},
      _trace: ['["stonehall-emulator",{"micros":0}]'],
    };
    if (shard) ready.shard = shard;
    this.dispatchTo(session, 'READY', ready);
    for (const g of guilds) this.dispatchTo(session, 'GUILD_CREATE', apiGatewayGuild(this.state, g));
    this.state.emit({ type: 'gateway', event: 'identify', sessionId: session.id });
    this.opts.logger.info({ session: session.id, intents }, 'emulator gateway: bot identified');
  }

  private resume(conn: Connection, d: Record<string, unknown> | null | undefined): void {
    if (conn.session) {
      conn.socket.close(4005, 'Already authenticated.');
      return;
    }
    const token = d && typeof d.token === 'string' ? d.token.replace(/^Bot\s+/i, '') : '';
    if (token !== this.opts.botToken) {
      conn.socket.close(4004, 'Authentication failed.');
      return;
    }
    const sessionId = d && typeof d.session_id === 'string' ? d.session_id : '';
    const seq = d && typeof d.seq === 'number' ? d.seq : d?.seq === null ? 0 : -1;
    const session = this.sessions.get(sessionId);
    const oldest = session?.buffer[0]?.s ?? (session ? session.seq + 1 : 0);
    if (!session || seq < 0 || seq + 1 < oldest) {
      // Unknown or expired session, or the missed events are no longer buffered.
      this.send(conn.socket, { op: Op.InvalidSession, d: false, s: null, t: null });
      return;
    }
    if (seq > session.seq) {
      conn.socket.close(4007, 'Invalid seq.');
      return;
    }
    if (session.socket && session.socket !== conn.socket) {
      const old = session.socket;
      session.socket = null;
      for (const c of this.connections) if (c.socket === old) c.session = null;
      old.close(4000, 'Session resumed elsewhere.');
    }
    session.socket = conn.socket;
    session.disconnectedAt = null;
    conn.session = session;
    const missed = session.buffer.filter((p) => (p.s ?? 0) > seq);
    for (const p of missed) this.send(conn.socket, p);
    this.dispatchTo(session, 'RESUMED', { _trace: ['["stonehall-emulator",{"micros":0}]'] });
    this.state.emit({ type: 'gateway', event: 'resume', sessionId: session.id });
    this.opts.logger.info({ session: session.id, replayed: missed.length }, 'emulator gateway: session resumed');
  }

  private onClose(conn: Connection, code: number): void {
    this.connections.delete(conn);
    const session = conn.session;
    if (!session || session.socket !== conn.socket) return;
    session.socket = null;
    session.disconnectedAt = Date.now();
    // A client closing normally (1000/1001) ends its session, as on Discord; anything else can resume.
    if (code === 1000 || code === 1001) this.sessions.delete(session.id);
    this.state.emit({ type: 'gateway', event: 'close', sessionId: session.id, code });
  }

  private requestGuildMembers(session: Session, d: Record<string, unknown> | null | undefined): void {
    const guildId = d && typeof d.guild_id === 'string' ? d.guild_id : undefined;
    const guild = guildId ? this.state.guilds.get(guildId) : undefined;
    if (!guild || !d) return;
    const query = typeof d.query === 'string' ? d.query.toLowerCase() : undefined;
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : Number.POSITIVE_INFINITY;
    const userIds = Array.isArray(d.user_ids) ? d.user_ids.map(String) : typeof d.user_ids === 'string' ? [d.user_ids] : undefined;
    let members = [...guild.members.values()];
    if (userIds) members = members.filter((m) => userIds.includes(m.userId));
    else if (query) {
      members = members.filter((m) => {
        const u = this.state.users.get(m.userId);
        return !!u && (u.username.toLowerCase().startsWith(query) || (m.nick ?? '').toLowerCase().startsWith(query));
      });
    }
    members = members.slice(0, limit);
    const chunk: DispatchData['GUILD_MEMBERS_CHUNK'] = {
      guild_id: guild.id,
      members: members.map((m) => apiMember(this.state, m)),
      chunk_index: 0,
      chunk_count: 1,
    };
    if (userIds) chunk.not_found = userIds.filter((id) => !guild.members.has(id));
    if (d.presences === true) chunk.presences = [];
    if (typeof d.nonce === 'string') chunk.nonce = d.nonce;
    this.dispatchTo(session, 'GUILD_MEMBERS_CHUNK', chunk);
  }

  private onShard(session: Session, guildId: string | null): boolean {
    if (!session.shard) return true;
    const [id, count] = session.shard;
    if (guildId === null) return id === 0;
    return Number((BigInt(guildId) >> 22n) % BigInt(count)) === id;
  }

  private dispatchTo<T extends DispatchName>(session: Session, t: T, d: DispatchData[T]): void {
    session.seq += 1;
    const payload: GatewayPayload = { op: Op.Dispatch, t, s: session.seq, d };
    session.buffer.push(payload);
    if (session.buffer.length > REPLAY_BUFFER) session.buffer.splice(0, session.buffer.length - REPLAY_BUFFER);
    if (session.socket) this.send(session.socket, payload);
  }

  /** Dispatches to every live or resumable session; `build` returns null to skip a session (intents). */
  dispatch<T extends DispatchName>(t: T, guildId: string | null, build: (session: Session) => DispatchData[T] | null): number {
    let n = 0;
    for (const session of this.sessions.values()) {
      if (!this.onShard(session, guildId)) continue;
      const d = build(session);
      if (d === null || d === undefined) continue;
      this.dispatchTo(session, t, d);
      n++;
    }
    return n;
  }

  /** INTERACTION_CREATE needs no intent. Returns how many sessions it went to. */
  dispatchInteraction(payload: Record<string, unknown>, guildId: string | null): number {
    return this.dispatch('INTERACTION_CREATE', guildId, () => payload);
  }

  get hasSession(): boolean {
    return this.sessions.size > 0;
  }

  sessionInfo(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => ({ id: s.id, connected: s.socket !== null, intents: s.intents, seq: s.seq, shard: s.shard }));
  }

  /** Test control: drops the bot's connection(s). Returns how many sockets were affected. */
  disconnect(opts: DisconnectOptions = {}): number {
    const mode = opts.mode ?? 'close';
    let n = 0;
    for (const session of [...this.sessions.values()]) {
      const ws = session.socket;
      if (!ws) continue;
      n++;
      switch (mode) {
        case 'terminate':
          ws.terminate();
          break;
        case 'reconnect':
          this.send(ws, { op: Op.Reconnect, d: null, s: null, t: null });
          break;
        case 'invalidate':
          this.send(ws, { op: Op.InvalidSession, d: false, s: null, t: null });
          this.sessions.delete(session.id);
          break;
        default:
          ws.close(opts.code ?? 4000, 'Disconnected by the emulator test API.');
      }
    }
    return n;
  }

  private prune(): void {
    const now = Date.now();
    for (const s of this.sessions.values()) {
      if (!s.socket && s.disconnectedAt !== null && now - s.disconnectedAt > RESUMABLE_FOR_MS) this.sessions.delete(s.id);
    }
  }

  private messageIntent(m: { guildId: string | null }): number {
    return m.guildId ? Intent.GuildMessages : Intent.DirectMessages;
  }

  /** Without MESSAGE_CONTENT a bot sees content only in DMs, its own messages and messages mentioning it. */
  private canSeeContent(session: Session, m: MessageRecord): boolean {
    const botId = this.state.application.botUserId;
    return (session.intents & Intent.MessageContent) !== 0 || m.guildId === null || m.authorId === botId || m.mentionUserIds.includes(botId);
  }

  private onStateEvent(e: EmulatorEvent): void {
    switch (e.type) {
      case 'message.create':
      case 'message.update': {
        const m = e.message;
        if (m.visibleTo !== null) return; // ephemeral messages never reach the gateway
        const t = e.type === 'message.create' ? 'MESSAGE_CREATE' : 'MESSAGE_UPDATE';
        this.dispatch(t, m.guildId, (s) =>
          s.intents & this.messageIntent(m)
            ? apiMessage(this.state, m, { gateway: true, includeNonce: t === 'MESSAGE_CREATE', stripContent: !this.canSeeContent(s, m) })
            : null,
        );
        return;
      }
      case 'message.delete': {
        if (e.visibleTo !== null) return;
        const intent = e.guildId ? Intent.GuildMessages : Intent.DirectMessages;
        this.dispatch('MESSAGE_DELETE', e.guildId, (s) =>
          s.intents & intent ? { id: e.id, channel_id: e.channelId, ...(e.guildId ? { guild_id: e.guildId } : {}) } : null,
        );
        return;
      }
      case 'thread.create': {
        // Private threads reach only sessions whose bot may see them (it is a member of those it starts).
        const thread = { ...(apiChannel(this.state, e.channel) as GatewayThreadCreateDispatchData), newly_created: true as const };
        this.dispatch('THREAD_CREATE', e.channel.guildId, (s) => (s.intents & Intent.Guilds ? thread : null));
        return;
      }
      case 'channel.update': {
        // Bots receive every channel of their guilds, seen or not (GUILD_CREATE lists them all too).
        const channel = apiChannel(this.state, e.channel) as GatewayChannelUpdateDispatchData;
        this.dispatch('CHANNEL_UPDATE', e.channel.guildId, (s) => (s.intents & Intent.Guilds ? channel : null));
        return;
      }
      case 'channel.delete': {
        const c = e.channel;
        if (c.thread) {
          const d: GatewayThreadDeleteDispatchData = { id: c.id, guild_id: c.guildId ?? '', parent_id: c.thread.parentId, type: c.type as 11 | 12 };
          this.dispatch('THREAD_DELETE', c.guildId, (s) => (s.intents & Intent.Guilds ? d : null));
        } else {
          const channel = apiChannel(this.state, c) as GatewayChannelDeleteDispatchData;
          this.dispatch('CHANNEL_DELETE', c.guildId, (s) => (s.intents & Intent.Guilds ? channel : null));
        }
        return;
      }
      case 'role.update': {
        const d: GatewayGuildRoleUpdateDispatchData = { guild_id: e.guildId, role: apiRole(e.role) };
        this.dispatch('GUILD_ROLE_UPDATE', e.guildId, (s) => (s.intents & Intent.Guilds ? d : null));
        return;
      }
      default:
        return;
    }
  }

  async close(): Promise<void> {
    this.unsubscribe();
    for (const c of this.connections) c.socket.terminate();
    this.connections.clear();
    this.sessions.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
