/**
 * The REST API under /api/v10 (also /api/v9 and /api): the routes discord.js uses for a bot that
 * registers commands, answers interactions and sends, edits and fetches messages and DMs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bulkOverwrite, createCommand, deleteCommand, editCommand, toApiCommand } from './commands.ts';
import { ApiError, Errors, FormErrors } from './errors.ts';
import type { Faults } from './faults.ts';
import type { Gateway } from './gateway.ts';
import { json, noContent, parseBody, readRawBody, Router, send, type ParsedBody, type Reply, type RequestContext } from './http.ts';
import type { Interactions } from './interactions.ts';
import type { RateLimiter } from './rate-limits.ts';
import type { EmulatorLogger } from './logger.ts';
import { createFromPayload, editFromPayload, validateOrThrow } from './messages.ts';
import type { MessagePayload } from './validate.ts';
import { Permission, hasPermission } from './permissions.ts';
import { apiChannel, apiCurrentUser, apiGuild, apiMember, apiMessage, apiRole, apiUser } from './serialize.ts';
import type { RestStats } from './rest-stats.ts';
import { compareSnowflakes, isSnowflake } from './snowflake.ts';
import { ChannelKind, type ChannelRecord, type CommandRecord, type EmulatorState, type GuildRecord, type MessageRecord } from './state.ts';

export interface RestDeps {
  state: EmulatorState;
  interactions: Interactions;
  gateway: Gateway;
  faults: Faults;
  /** null: no rate limits (only injected faults answer 429). */
  rateLimiter: RateLimiter | null;
  /** Told of every REST request and its answer (after the answer is sent). */
  onExchange?: (exchange: RestExchange) => void;
  /** Counts every answered request per route (the test API's rest-stats). */
  stats?: RestStats;
  logger: EmulatorLogger;
  botToken: string;
  baseUrl: () => string;
  gatewayUrl: () => string;
  /** The shard count GET /gateway/bot recommends. */
  recommendedShards?: () => number;
}

/** One REST request of the bot and the emulator's answer: what a recorder or a spec check needs. */
export interface RestExchange {
  method: string;
  /** Without the /api/vN prefix and the query. */
  path: string;
  query: string;
  /** The JSON body (multipart: its payload_json); undefined when there was none or it was not read. */
  requestBody: unknown;
  status: number;
  /** undefined for 204. */
  responseBody: unknown;
}

/** How long an enforced nonce is remembered (Discord: "the past few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;

/** Path parameters that must be snowflakes, with the literal values Discord also accepts. */
const SNOWFLAKE_PARAMS: Record<string, string[]> = {
  channelId: [],
  messageId: ['@original'],
  guildId: [],
  userId: ['@me'],
  applicationId: [],
  commandId: [],
  interactionId: [],
};

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export class RestApi {
  private readonly router = new Router();

  constructor(private readonly deps: RestDeps) {
    this.routes();
  }

  /** The REST routes served ("/channels/:channelId/messages"), without the /api/vN prefix. */
  served(): Array<{ method: string; pattern: string }> {
    return this.router.list();
  }

  private get state(): EmulatorState {
    return this.deps.state;
  }

  /** Handles a request under /api; returns false when the path is not an API path. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const m = /^\/api(?:\/v(\d+))?(\/.*)?$/.exec(url.pathname);
    if (!m) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    const path = m[2] ?? '/';
    let reply: Reply;
    let rawBody: Buffer | undefined;
    let delayMs = 0;
    let limitHeaders: Record<string, string> | undefined;
    let parsed: ParsedBody | undefined;
    let routeName = `${method} ?`;
    const tell = (r: Reply) => {
      this.deps.stats?.record(routeName, r.status);
      if (!this.deps.onExchange) return;
      try {
        this.deps.onExchange({ method, path, query: url.search, requestBody: parsed?.json, status: r.status, responseBody: 'json' in r ? r.json : undefined });
      } catch {
        // A broken recorder must not break the emulator.
      }
    };
    try {
      const version = m[1] ? Number(m[1]) : 10;
      if (version < 9 || version > 10) throw new ApiError(400, 50041, 'Invalid API version provided');
      const fault = this.deps.faults.take(method, path);
      if (fault && 'reply' in fault) {
        this.deps.logger.warn({ method, path, status: fault.reply.status }, 'emulator: injected fault');
        send(res, fault.reply);
        if (this.deps.stats) {
          const hit = this.router.match(method, path);
          this.deps.stats.record(typeof hit === 'object' ? `${method} ${hit.route.pattern}` : routeName, fault.reply.status);
        }
        return true;
      }
      if (fault) {
        delayMs = fault.delayMs;
        if (fault.arriveAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.arriveAfterMs));
      }
      const match = this.router.match(method, path);
      if (match === undefined) throw Errors.notFound();
      if (match === 'methodNotAllowed') throw Errors.methodNotAllowed();
      routeName = `${method} ${match.route.pattern}`;
      if (match.route.meta.auth !== false) this.checkAuth(req);
      for (const [name, value] of Object.entries(match.params)) {
        const literals = SNOWFLAKE_PARAMS[name];
        if (literals && !literals.includes(value) && !isSnowflake(value)) {
          throw Errors.invalidFormBody([snake(name)], 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
        }
      }
      const limit = this.deps.rateLimiter?.take(method, match);
      if (limit && !limit.ok) {
        this.deps.logger.info({ method, path, retryAfter: limit.body.retry_after, global: limit.body.global }, 'emulator: rate limited');
        const tooMany = { status: 429, json: limit.body, headers: limit.headers };
        send(res, tooMany);
        tell(tooMany);
        return true;
      }
      limitHeaders = limit?.headers;
      const ctx: RequestContext = {
        req,
        method,
        path,
        url,
        params: match.params,
        query: url.searchParams,
        body: async () => {
          if (!parsed) {
            rawBody = await readRawBody(req);
            parsed = await parseBody(req, rawBody);
          }
          return parsed;
        },
      };
      const result = await match.route.handler(ctx);
      if (result === null) return true;
      reply = result;
    } catch (err) {
      if (err instanceof ApiError) {
        reply = { status: err.status, json: err.body, headers: err.headers };
        this.reject(method, path, err, rawBody);
      } else {
        this.deps.logger.error({ err, method, path }, 'emulator: REST handler failed');
        reply = json(500, { message: '500: Internal Server Error', code: 0 });
      }
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (limitHeaders) reply = { ...reply, headers: { ...limitHeaders, ...reply.headers } };
    send(res, reply);
    tell(reply);
    return true;
  }

  private checkAuth(req: IncomingMessage): void {
    const header = req.headers.authorization ?? '';
    if (header !== `Bot ${this.deps.botToken}`) throw Errors.unauthorized();
  }

  /** Every refused bot request is logged (warn) and kept for the test API and the web page. */
  private reject(method: string, path: string, err: ApiError, raw: Buffer | undefined): void {
    const details: string[] = [];
    const walk = (node: unknown, at: string[]) => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
        if (k === '_errors' && Array.isArray(v)) for (const e of v as Array<{ code: string; message: string }>) details.push(`${at.join('.') || '(body)'}: ${e.code} ${e.message}`);
        else walk(v, [...at, k]);
      }
    };
    walk(err.errors, []);
    const rejection = {
      at: this.state.nowIso(),
      method,
      path,
      status: err.status,
      code: err.code,
      message: err.message,
      ...(err.errors ? { errors: err.errors } : {}),
      details,
    };
    this.state.recordRejection(rejection);
    // The body only of a malformed request (what finds the bug): a well-formed one refused for
    // another reason, such as a DM to a user whose DMs are closed, may carry what only they may see.
    this.deps.logger.warn(
      { method, path, status: err.status, code: err.code, details, body: err.code === 50035 && raw && raw.length < 4096 ? raw.toString('utf8') : undefined },
      `emulator rejected ${method} ${path}: ${err.code} ${err.message}`,
    );
  }

  // ---- lookups ------------------------------------------------------------------------------

  private channel(id: string): ChannelRecord {
    const c = this.state.channels.get(id);
    if (!c) throw Errors.unknownChannel();
    if (!this.state.canView(c, this.state.application.botUserId)) throw Errors.missingAccess();
    return c;
  }

  private guild(id: string): GuildRecord {
    const g = this.state.guilds.get(id);
    if (!g || !g.members.has(this.state.application.botUserId)) throw Errors.unknownGuild();
    return g;
  }

  /** A message the bot can reach through channel routes (ephemeral ones are invisible there). */
  private message(channel: ChannelRecord, id: string): MessageRecord {
    const m = this.state.messages.get(id);
    if (!m || m.channelId !== channel.id || m.visibleTo !== null) throw Errors.unknownMessage();
    return m;
  }

  private application(id: string): void {
    if (id !== this.state.application.id) throw Errors.unknownApplication();
  }

  private command(guildId: string | null, id: string): CommandRecord {
    const c = this.state.commands.get(id);
    if (!c || c.guildId !== guildId) throw Errors.unknownCommand();
    return c;
  }

  /** A text channel of a guild where the bot may start threads. */
  private threadParent(id: string): ChannelRecord {
    const parent = this.channel(id);
    if (parent.type !== ChannelKind.GuildText) throw new ApiError(400, 50024, 'Cannot execute action on this channel type');
    return parent;
  }

  /** Public threads need Create Public Threads, private ones Create Private Threads. */
  private requireThreadPermission(parent: ChannelRecord, type: 11 | 12): void {
    const needed = type === ChannelKind.PrivateThread ? Permission.CREATE_PRIVATE_THREADS : Permission.CREATE_PUBLIC_THREADS;
    if (!hasPermission(this.botPerms(parent), needed)) throw Errors.missingPermissions();
  }

  private threadInput(body: unknown, withType: boolean): { name: string; autoArchive: 60 | 1440 | 4320 | 10080; type: 11 | 12 } {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const f = new FormErrors();
    if (typeof b.name !== 'string') f.add(['name'], 'BASE_TYPE_REQUIRED', 'This field is required');
    else if (b.name.length < 1 || b.name.length > 100) f.add(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    const auto = b.auto_archive_duration ?? 4320;
    if (![60, 1440, 4320, 10080].includes(auto as number)) f.add(['auto_archive_duration'], 'BASE_TYPE_CHOICES', `Value must be one of {60, 1440, 4320, 10080}.`);
    const type = withType ? (b.type ?? 12) : 11;
    if (type !== 11 && type !== 12) f.add(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of {11, 12}.');
    if (!f.empty) throw ApiError.form(f);
    return { name: b.name as string, autoArchive: auto as 60 | 1440 | 4320 | 10080, type: type as 11 | 12 };
  }

  private startThread(parent: ChannelRecord, id: string, name: string, autoArchive: 60 | 1440 | 4320 | 10080, type: 11 | 12): ChannelRecord {
    const botId = this.state.application.botUserId;
    const channel: ChannelRecord = {
      id,
      type,
      guildId: parent.guildId,
      name,
      position: 0,
      topic: null,
      overwrites: [],
      recipientId: null,
      lastMessageId: null,
      thread: { parentId: parent.id, ownerId: botId, createdAt: this.state.nowIso(), autoArchiveMinutes: autoArchive, memberIds: [botId] },
    };
    this.state.channels.set(id, channel);
    this.state.channelMessages.set(id, []);
    this.state.emit({ type: 'thread.create', channel });
    return channel;
  }

  /**
   * Without Embed Links Discord still posts (or edits) the message and silently drops its embeds.
   * (Interaction responses and follow-ups are not bound by it: they are answered elsewhere.)
   */
  private withoutForbiddenEmbeds(channel: ChannelRecord, payload: MessagePayload): MessagePayload {
    if (!payload.embeds?.length || hasPermission(this.botPerms(channel), Permission.EMBED_LINKS)) return payload;
    return { ...payload, embeds: [] };
  }

  private botPerms(channel: ChannelRecord): bigint {
    return this.state.permissionsIn(channel, this.state.application.botUserId);
  }

  // ---- routes -------------------------------------------------------------------------------

  private routes(): void {
    const r = this.router;
    const { state } = this;
    const bot = () => state.botUser;

    // gateway
    r.get('/gateway', () => json(200, { url: this.deps.gatewayUrl() }), { auth: false });
    r.get('/gateway/bot', () =>
      json(200, {
        url: this.deps.gatewayUrl(),
        shards: this.deps.recommendedShards?.() ?? 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      }),
    );

    // users and application
    r.get('/users/@me', () => json(200, apiCurrentUser(bot())));
    r.get('/users/@me/guilds', () =>
      json(
        200,
        [...state.guilds.values()]
          .filter((g) => g.members.has(bot().id))
          .map((g) => ({
            id: g.id,
            name: g.name,
            icon: null,
            banner: null,
            owner: false,
            permissions: state.guildPermissions(g.id, bot().id).toString(),
            features: [],
          })),
      ),
    );
    r.get('/users/:userId', ({ params }) => {
      const u = params.userId === '@me' ? bot() : state.users.get(params.userId as string);
      if (!u) throw Errors.unknownUser();
      return json(200, apiUser(u));
    });
    r.post('/users/@me/channels', async (ctx) => {
      const { json: body } = await ctx.body();
      const recipient = body && typeof body === 'object' ? (body as Record<string, unknown>).recipient_id : undefined;
      if (typeof recipient !== 'string' || !isSnowflake(recipient)) {
        throw Errors.invalidFormBody(['recipient_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      const user = state.users.get(recipient);
      if (!user) throw Errors.unknownUser();
      if (user.bot) throw Errors.cannotSendToUser();
      return json(200, apiChannel(state, state.openDm(user.id)));
    });
    const appObject = () => {
      const app = state.application;
      const owner = state.users.get(app.ownerId);
      return {
        id: app.id,
        name: app.name,
        icon: null,
        description: app.description,
        summary: '',
        type: null,
        hook: true,
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: 'e'.repeat(64),
        flags: app.flags,
        flags_new: String(app.flags),
        owner: owner ? apiUser(owner) : null,
        team: null,
        bot: apiUser(bot()),
        approximate_guild_count: state.guilds.size,
        approximate_user_install_count: 0,
        approximate_user_authorization_count: 0,
        explicit_content_filter: 0,
        eligible_oauth2_scopes: ['bot', 'applications.commands'],
        redirect_uris: [],
        interactions_endpoint_url: null,
        role_connections_verification_url: null,
        event_webhooks_url: null,
        event_webhooks_status: 1,
        integration_types_config: { '0': {} },
        tags: [],
        rpc_origins: [],
      };
    };
    r.get('/applications/@me', () => json(200, appObject()));
    r.get('/oauth2/applications/@me', () => json(200, appObject()));

    // application commands (global and guild)
    const scopes: Array<[string, (p: Record<string, string>) => string | null]> = [
      ['/applications/:applicationId/commands', () => null],
      ['/applications/:applicationId/guilds/:guildId/commands', (p) => this.guild(p.guildId as string).id],
    ];
    for (const [base, scopeOf] of scopes) {
      r.get(base, ({ params, query }) => {
        this.application(params.applicationId as string);
        const withLoc = query.get('with_localizations') === 'true';
        return json(200, state.commandsFor(scopeOf(params)).map((c) => toApiCommand(c, withLoc)));
      });
      r.put(base, async (ctx) => {
        this.application(ctx.params.applicationId as string);
        const scope = scopeOf(ctx.params);
        const { json: body } = await ctx.body();
        return json(200, bulkOverwrite(state, scope, body).map((c) => toApiCommand(c)));
      });
      r.post(base, async (ctx) => {
        this.application(ctx.params.applicationId as string);
        const scope = scopeOf(ctx.params);
        const { json: body } = await ctx.body();
        const { record, created } = createCommand(state, scope, body);
        return json(created ? 201 : 200, toApiCommand(record));
      });
      r.get(`${base}/:commandId`, ({ params }) => {
        this.application(params.applicationId as string);
        return json(200, toApiCommand(this.command(scopeOf(params), params.commandId as string)));
      });
      r.patch(`${base}/:commandId`, async (ctx) => {
        this.application(ctx.params.applicationId as string);
        const record = this.command(scopeOf(ctx.params), ctx.params.commandId as string);
        const { json: body } = await ctx.body();
        return json(200, toApiCommand(editCommand(state, record, body)));
      });
      r.delete(`${base}/:commandId`, ({ params }) => {
        this.application(params.applicationId as string);
        deleteCommand(state, this.command(scopeOf(params), params.commandId as string));
        return noContent();
      });
    }
    r.get('/applications/:applicationId/guilds/:guildId/commands/permissions', ({ params }) => {
      this.application(params.applicationId as string);
      this.guild(params.guildId as string);
      return json(200, []);
    });
    r.get('/applications/:applicationId/guilds/:guildId/commands/:commandId/permissions', () => {
      throw new ApiError(404, 10066, 'Unknown application command permissions');
    });

    // interactions (no bot auth: the token in the path is the credential)
    r.post(
      '/interactions/:interactionId/:token/callback',
      async (ctx) => {
        const { json: body, files } = await ctx.body();
        const withResponse = ctx.query.get('with_response') === 'true';
        return this.deps.interactions.callback(ctx.params.interactionId as string, ctx.params.token as string, body, files, withResponse);
      },
      { auth: false },
    );
    r.post(
      '/webhooks/:applicationId/:token',
      async (ctx) => {
        const { json: body, files } = await ctx.body();
        const wait = ctx.query.get('wait') === 'true';
        return this.deps.interactions.followup(ctx.params.applicationId as string, ctx.params.token as string, body, files, wait);
      },
      { auth: false },
    );
    r.get('/webhooks/:applicationId/:token/messages/:messageId', ({ params }) =>
      this.deps.interactions.getMessage(params.applicationId as string, params.token as string, params.messageId as string), { auth: false },
    );
    r.patch(
      '/webhooks/:applicationId/:token/messages/:messageId',
      async (ctx) => {
        const { json: body, files } = await ctx.body();
        const p = ctx.params;
        return this.deps.interactions.editMessage(p.applicationId as string, p.token as string, p.messageId as string, body, files);
      },
      { auth: false },
    );
    r.delete('/webhooks/:applicationId/:token/messages/:messageId', ({ params }) =>
      this.deps.interactions.deleteMessage(params.applicationId as string, params.token as string, params.messageId as string), { auth: false },
    );

    // channels and messages
    r.get('/channels/:channelId', ({ params }) => json(200, apiChannel(state, this.channel(params.channelId as string))));
    // threads: from a message (the thread takes the message's id) or on their own
    r.post('/channels/:channelId/messages/:messageId/threads', async (ctx) => {
      const parent = this.threadParent(ctx.params.channelId as string);
      const message = this.message(parent, ctx.params.messageId as string);
      if (state.channels.has(message.id)) throw new ApiError(400, 160004, 'A thread has already been created for this message');
      const { json: body } = await ctx.body();
      const input = this.threadInput(body, false);
      this.requireThreadPermission(parent, ChannelKind.PublicThread);
      const thread = this.startThread(parent, message.id, input.name, input.autoArchive, ChannelKind.PublicThread);
      // The message now has a thread (flag HAS_THREAD, and its `thread` field): Discord announces it as an update.
      state.updateMessage(message, { flags: message.flags | 32 }, false);
      return json(201, apiChannel(state, thread));
    });
    r.post('/channels/:channelId/threads', async (ctx) => {
      const parent = this.threadParent(ctx.params.channelId as string);
      const { json: body } = await ctx.body();
      const input = this.threadInput(body, true);
      this.requireThreadPermission(parent, input.type);
      return json(201, apiChannel(state, this.startThread(parent, state.ids.next(), input.name, input.autoArchive, input.type)));
    });
    r.post('/channels/:channelId/typing', ({ params }) => {
      // Typing needs what sending needs (in a thread: SEND_MESSAGES_IN_THREADS).
      const channel = this.channel(params.channelId as string);
      if (!hasPermission(this.botPerms(channel), Permission.SEND_MESSAGES)) throw Errors.missingPermissions();
      return noContent();
    });
    r.post('/channels/:channelId/messages', async (ctx) => this.createMessage(ctx));
    r.get('/channels/:channelId/messages', ({ params, query }) => this.listMessages(this.channel(params.channelId as string), query));
    r.get('/channels/:channelId/messages/:messageId', ({ params }) => {
      const channel = this.channel(params.channelId as string);
      if (!hasPermission(this.botPerms(channel), Permission.READ_MESSAGE_HISTORY)) throw Errors.missingAccess();
      return json(200, apiMessage(state, this.message(channel, params.messageId as string)));
    });
    r.patch('/channels/:channelId/messages/:messageId', async (ctx) => {
      const channel = this.channel(ctx.params.channelId as string);
      const message = this.message(channel, ctx.params.messageId as string);
      if (message.authorId !== bot().id) throw Errors.cannotEditOthers();
      const { json: body, files } = await ctx.body();
      const payload = this.withoutForbiddenEmbeds(channel, validateOrThrow(body ?? {}, {}));
      // Editing one's own message needs only View Channel, but an upload in the edit needs Attach Files.
      if (files.length && !hasPermission(this.botPerms(channel), Permission.ATTACH_FILES)) throw Errors.missingPermissions();
      return json(200, apiMessage(state, editFromPayload(state, message, payload, files, this.deps.baseUrl())));
    });
    r.delete('/channels/:channelId/messages/:messageId', ({ params }) => {
      const channel = this.channel(params.channelId as string);
      const message = this.message(channel, params.messageId as string);
      const own = message.authorId === bot().id;
      if (!own && (channel.type === ChannelKind.DM || !hasPermission(this.botPerms(channel), Permission.MANAGE_MESSAGES))) throw Errors.missingPermissions();
      state.deleteMessage(message);
      return noContent();
    });

    // guilds
    r.get('/guilds/:guildId', ({ params, query }) => json(200, apiGuild(this.guild(params.guildId as string), query.get('with_counts') === 'true')));
    r.get('/guilds/:guildId/channels', ({ params }) => {
      const g = this.guild(params.guildId as string);
      const channels = [...state.channels.values()].filter((c) => c.guildId === g.id && !c.thread).sort((a, b) => a.position - b.position);
      return json(200, channels.map((c) => apiChannel(state, c)));
    });
    r.get('/guilds/:guildId/roles', ({ params }) => json(200, [...this.guild(params.guildId as string).roles.values()].map(apiRole)));
    r.get('/guilds/:guildId/members', ({ params, query }) => {
      const g = this.guild(params.guildId as string);
      const limit = this.intQuery(query, 'limit', 1, 1, 1000);
      const after = query.get('after') ?? '0';
      const members = [...g.members.values()]
        .filter((m) => compareSnowflakes(m.userId, after) > 0)
        .sort((a, b) => compareSnowflakes(a.userId, b.userId))
        .slice(0, limit);
      return json(200, members.map((m) => apiMember(state, m)));
    });
    r.get('/guilds/:guildId/members/:userId', ({ params }) => {
      const g = this.guild(params.guildId as string);
      const id = params.userId === '@me' ? bot().id : (params.userId as string);
      const m = g.members.get(id);
      if (!m) throw Errors.unknownMember();
      return json(200, apiMember(state, m));
    });
  }

  private intQuery(query: URLSearchParams, name: string, def: number, min: number, max: number): number {
    const raw = query.get(name);
    if (raw === null) return def;
    const n = Number(raw);
    if (!Number.isInteger(n)) throw Errors.invalidFormBody([name], 'NUMBER_TYPE_COERCE', `Value "${raw}" is not int.`);
    if (n < min) throw Errors.invalidFormBody([name], 'NUMBER_TYPE_MIN', `int value should be greater than or equal to ${min}.`);
    if (n > max) throw Errors.invalidFormBody([name], 'NUMBER_TYPE_MAX', `int value should be less than or equal to ${max}.`);
    return n;
  }

  private listMessages(channel: ChannelRecord, query: URLSearchParams): Reply {
    const limit = this.intQuery(query, 'limit', 50, 1, 100);
    if (!hasPermission(this.botPerms(channel), Permission.READ_MESSAGE_HISTORY)) return json(200, []);
    const all = this.state.messagesIn(channel.id).filter((m) => m.visibleTo === null);
    const before = query.get('before');
    const after = query.get('after');
    const around = query.get('around');
    let picked: MessageRecord[];
    if (around) {
      const idx = all.findIndex((m) => compareSnowflakes(m.id, around) >= 0);
      const center = idx < 0 ? all.length : idx;
      const half = Math.floor(limit / 2);
      const start = Math.max(0, center - half);
      picked = all.slice(start, start + limit);
    } else if (after) {
      picked = all.filter((m) => compareSnowflakes(m.id, after) > 0).slice(0, limit);
    } else {
      const pool = before ? all.filter((m) => compareSnowflakes(m.id, before) < 0) : all;
      picked = pool.slice(Math.max(0, pool.length - limit));
    }
    // Newest first, as Discord returns them.
    return json(200, picked.reverse().map((m) => apiMessage(this.state, m)));
  }

  private async createMessage(ctx: RequestContext): Promise<Reply> {
    const { state } = this;
    const channel = this.channel(ctx.params.channelId as string);
    const botId = state.application.botUserId;
    const perms = this.botPerms(channel);
    if (!hasPermission(perms, Permission.SEND_MESSAGES)) throw Errors.missingPermissions();
    const { json: body, files } = await ctx.body();
    const payload = this.withoutForbiddenEmbeds(channel, validateOrThrow(body ?? {}, {}));
    if (files.length && !hasPermission(perms, Permission.ATTACH_FILES)) throw Errors.missingPermissions();
    // A reply needs Read Message History (it reads the message it answers).
    if (payload.messageReference && !hasPermission(perms, Permission.READ_MESSAGE_HISTORY)) throw Errors.missingPermissions();
    if (channel.type === ChannelKind.DM) {
      const recipient = channel.recipientId ? state.users.get(channel.recipientId) : undefined;
      if (!recipient || recipient.bot || !recipient.dmsOpen) throw Errors.cannotSendToUser();
    }
    const nonceKey = payload.enforceNonce && payload.nonce !== undefined ? `${botId}:${channel.id}:${String(payload.nonce)}` : null;
    const now = state.now().getTime();
    if (nonceKey) {
      const seen = state.nonces.get(nonceKey);
      const existing = seen && now - seen.at <= NONCE_WINDOW_MS ? state.messages.get(seen.messageId) : undefined;
      if (existing) return json(200, apiMessage(state, existing, { includeNonce: true }));
    }
    const message = createFromPayload(state, payload, { channel, authorId: botId, files }, this.deps.baseUrl());
    if (nonceKey) {
      state.rememberNonce(nonceKey, { messageId: message.id, at: now });
      for (const [k, v] of state.nonces) if (now - v.at > NONCE_WINDOW_MS) state.nonces.delete(k);
    }
    return json(200, apiMessage(state, message, { includeNonce: true }));
  }
}
