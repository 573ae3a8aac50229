/**
 * The test API under /_test: act as any demo user (run slash commands, click components, submit
 * modals, send messages), read what each user sees, steer time, inject faults, drop the gateway and
 * follow changes as Server-Sent Events. Documented in the package README.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { EmulatorClock } from './clock.ts';
import { toApiCommand } from './commands.ts';
import type { Faults } from './faults.ts';
import type { Gateway } from './gateway.ts';
import { json, parseBody, readRawBody, Router, send, type Reply, type RequestContext } from './http.ts';
import type { InteractionOutcome, InteractionRecord, Interactions } from './interactions.ts';
import type { EmulatorLogger } from './logger.ts';
import type { RateLimiter } from './rate-limits.ts';
import type { RestStats } from './rest-stats.ts';
import { computeMentions, MessageKind } from './messages.ts';
import { Permission, hasPermission } from './permissions.ts';
import { buildCommandData, findUsableCommand, parseCommandInput, TestInputError } from './resolve.ts';
import { apiChannel, apiMemberFields, apiMessage, apiRole, apiUser } from './serialize.ts';
import { permissionBits, permissionNames, resolveOverwriteTarget, type PermissionName } from './server.ts';
import { ChannelKind, walkComponents, type ChannelRecord, type EmulatorEvent, type EmulatorState, type MessageRecord, type UserRecord } from './state.ts';

export interface TestApiDeps {
  state: EmulatorState;
  interactions: Interactions;
  gateway: Gateway;
  faults: Faults;
  clock: EmulatorClock;
  logger: EmulatorLogger;
  rateLimiter?: RateLimiter | null;
  restStats?: RestStats;
}

const ref = z.string().trim().min(1);
const permissionName = z.enum(Object.keys(Permission) as [PermissionName, ...PermissionName[]]);
const overwriteTarget = { role: ref.optional(), user: ref.optional() };
const oneTarget = (o: { role?: string | undefined; user?: string | undefined }) => (o.role === undefined) !== (o.user === undefined);
const oneTargetMessage = { message: 'give either role (a role name, "@everyone", or the bot\'s name for its role) or user (an alias, or "bot")' };

export const schemas = {
  command: z.object({
    user: ref,
    channel: ref,
    name: ref,
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  autocomplete: z.object({
    user: ref,
    channel: ref,
    name: ref,
    options: z.record(z.string(), z.unknown()).optional(),
    focused: ref,
  }),
  component: z.object({
    user: ref,
    message: ref,
    customId: z.string().min(1),
    values: z.array(z.string()).optional(),
  }),
  modal: z.object({
    user: ref,
    customId: z.string().min(1).optional(),
    values: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  }),
  message: z.object({
    user: ref,
    channel: ref,
    content: z.string().min(1).max(2000),
    replyTo: z.string().optional(),
  }),
  rawInteraction: z.object({
    user: ref,
    channel: ref,
    type: z.union([z.literal(2), z.literal(3), z.literal(4)]),
    data: z.record(z.string(), z.unknown()),
    message: z.string().optional(),
    /** Stop waiting for the initial response after this long (the interaction's window stays open). */
    wait_ms: z.number().int().min(0).optional(),
  }),
  dms: z.object({ open: z.boolean() }),
  advance: z.object({ ms: z.number().finite().min(0) }),
  fault: z.object({
    route: z.string().min(1),
    status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)]).optional(),
    delayMs: z.number().int().min(1).max(60_000).optional(),
    arriveAfterMs: z.number().int().min(1).max(60_000).optional(),
    retryAfter: z.number().min(0).max(60).optional(),
    global: z.boolean().optional(),
    count: z.number().int().min(1).max(1000).optional(),
  }).refine((f) => [f.status, f.delayMs, f.arriveAfterMs].filter((x) => x !== undefined).length === 1, {
    message: 'give one of status (an error), delayMs (a late answer) or arriveAfterMs (a late request)',
  }),
  setOverwrite: z
    .object({ channel: ref, ...overwriteTarget, allow: z.array(permissionName).default([]), deny: z.array(permissionName).default([]) })
    .refine(oneTarget, oneTargetMessage),
  clearOverwrite: z.object({ channel: ref, ...overwriteTarget }).refine(oneTarget, oneTargetMessage),
  setRolePermissions: z.object({ role: ref, permissions: z.array(permissionName) }),
  deleteChannel: z.object({ channel: ref }),
  disconnect: z.object({
    mode: z.enum(['close', 'terminate', 'reconnect', 'invalidate']).optional(),
    code: z.number().int().min(1000).max(4999).optional(),
  }),
};

export type CommandRequest = z.input<typeof schemas.command>;
export type AutocompleteRequest = z.input<typeof schemas.autocomplete>;
export type ComponentRequest = z.input<typeof schemas.component>;
export type ModalRequest = z.input<typeof schemas.modal>;
export type UserMessageRequest = z.input<typeof schemas.message>;
export type FaultRequest = z.input<typeof schemas.fault>;
export type DisconnectRequest = z.input<typeof schemas.disconnect>;
export type SetOverwriteRequest = { channel: string; role?: string; user?: string; allow?: PermissionName[]; deny?: PermissionName[] };
export type ClearOverwriteRequest = { channel: string; role?: string; user?: string };
export type SetRolePermissionsRequest = { role: string; permissions: PermissionName[] };
export type DeleteChannelRequest = { channel: string };

/** A channel's permission settings, and what they give a member (the bot unless asked for another). */
export interface ChannelPermissionsView {
  channel: { id: string; name: string | null; guild_id: string | null };
  overwrites: Array<{ id: string; type: 0 | 1; name: string; allow: PermissionName[]; deny: PermissionName[] }>;
  /** The member whose effective permissions `permissions` lists. */
  member: { id: string; name: string };
  /** The bits roles and overwrites give (what app_permissions carries, what discord.js's permissionsFor computes). */
  permissions: PermissionName[];
  /** What the member may actually do there: `permissions` after Discord's implicit rules (nothing without View Channel; no files or embeds without Send Messages). */
  effective: PermissionName[];
  /** `permissions` as Discord's decimal bit string. */
  bits: string;
}

export interface RolePermissionsView {
  role: { id: string; name: string; guild_id: string };
  permissions: PermissionName[];
}

/** What the interaction endpoints return. */
export interface InteractionResult {
  interactionId: string;
  /** The bot's initial response, or null when it did not answer in time. */
  response: InteractionOutcome | null;
  /** Set when the bot did not respond ("The application did not respond"). */
  error?: string;
}

const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);

export class TestApi {
  private readonly router = new Router();
  private readonly streams = new Set<ServerResponse>();

  constructor(private readonly deps: TestApiDeps) {
    this.routes();
  }

  private get state(): EmulatorState {
    return this.deps.state;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname !== '/_test' && !url.pathname.startsWith('/_test/')) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname.slice('/_test'.length) || '/';
    let reply: Reply | null;
    try {
      const match = this.router.match(method, path);
      if (match === undefined) throw new TestInputError(`no test API route ${method} /_test${path}`, 404);
      if (match === 'methodNotAllowed') throw new TestInputError(`method ${method} not allowed on /_test${path}`, 405);
      let parsed: unknown;
      let read = false;
      const ctx: RequestContext & { res: ServerResponse } = {
        req,
        res,
        method,
        path,
        url,
        params: match.params,
        query: url.searchParams,
        body: async () => {
          if (!read) {
            read = true;
            parsed = (await parseBody(req, await readRawBody(req))).json;
          }
          return { json: parsed, files: [] };
        },
      };
      reply = await match.route.handler(ctx);
    } catch (err) {
      if (err instanceof TestInputError) reply = json(err.status, { error: err.message });
      else if (err instanceof z.ZodError) {
        reply = json(400, { error: `invalid request: ${err.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`, issues: err.issues });
      } else {
        this.deps.logger.error({ err }, 'emulator test API failed');
        reply = json(500, { error: err instanceof Error ? err.message : String(err) });
      }
    }
    if (reply) send(res, reply);
    return true;
  }

  /** Ends open event streams (so the HTTP server can close). */
  close(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  // ---- resolution helpers -------------------------------------------------------------------

  private user(refStr: string): UserRecord {
    const u = this.state.resolveUser(refStr);
    if (!u) {
      const known = [...this.state.users.values()].filter((x) => x.alias).map((x) => x.alias);
      throw new TestInputError(`unknown user "${refStr}"; use an id or one of: ${known.join(', ')}`);
    }
    return u;
  }

  /** A channel as `user` would pick it: alias/name/id, or "dm" for their DM with the bot. */
  private channelFor(user: UserRecord, refStr: string): ChannelRecord {
    if (refStr.toLowerCase() === 'dm') {
      if (user.bot) throw new TestInputError('bots have no DM channel with the bot');
      return this.state.openDm(user.id);
    }
    const channel = this.state.resolveChannel(refStr);
    if (!channel) {
      const known = [...this.state.channels.values()].filter((c) => c.type === ChannelKind.GuildText).map((c) => c.name);
      throw new TestInputError(`unknown channel "${refStr}"; use an id, "dm" or one of: ${known.join(', ')}`);
    }
    if (!this.state.canView(channel, user.id)) throw new TestInputError(`${user.username} cannot see channel ${channel.name ?? channel.id}`, 403);
    return channel;
  }

  private requireBot(): void {
    if (!this.deps.gateway.hasSession) throw new TestInputError('no bot is connected to the gateway (log a discord.js client in first)', 409);
  }

  private async run(record: InteractionRecord, waitMs?: number): Promise<InteractionResult> {
    const response = await this.deps.interactions.wait(record, waitMs);
    const result: InteractionResult = { interactionId: record.id, response };
    const within = waitMs !== undefined && waitMs < this.deps.interactions.timeoutMs ? waitMs : this.deps.interactions.timeoutMs;
    if (!response) result.error = `The application did not respond (no initial response within ${within} ms)`;
    return result;
  }

  private messageView(m: MessageRecord) {
    return apiMessage(this.state, m);
  }

  // ---- routes -------------------------------------------------------------------------------

  private routes(): void {
    const r = this.router;
    const { state } = this;

    r.get('/', () => json(200, { routes: this.describe() }));
    r.get('/state', () => json(200, this.snapshot()));
    r.get('/rejections', () => json(200, { rejections: state.rejections }));
    r.delete('/rejections', () => {
      const cleared = state.rejections.splice(0).length;
      state.changed();
      return json(200, { cleared });
    });

    r.post('/commands', async (ctx) => {
      const input = schemas.command.parse((await ctx.body()).json);
      const user = this.user(input.user);
      const channel = this.channelFor(user, input.channel);
      const path = parseCommandInput(input.name, input.options);
      const command = findUsableCommand(state, path.name, user, channel);
      const built = buildCommandData(state, command, channel, user, path);
      this.requireBot();
      const { record } = this.deps.interactions.create({
        type: 2,
        user,
        channel,
        data: built.data,
        commandName: built.displayName,
        commandType: command.type,
      });
      return json(200, await this.run(record));
    });

    r.post('/autocomplete', async (ctx) => {
      const input = schemas.autocomplete.parse((await ctx.body()).json);
      const user = this.user(input.user);
      const channel = this.channelFor(user, input.channel);
      const path = parseCommandInput(input.name, input.options);
      const command = findUsableCommand(state, path.name, user, channel);
      const built = buildCommandData(state, command, channel, user, path, input.focused);
      this.requireBot();
      const { record } = this.deps.interactions.create({ type: 4, user, channel, data: built.data, commandName: built.displayName, commandType: command.type });
      const result = await this.run(record);
      return json(200, { ...result, choices: result.response?.choices ?? null });
    });

    r.post('/components', async (ctx) => {
      const input = schemas.component.parse((await ctx.body()).json);
      const user = this.user(input.user);
      const message = state.messages.get(input.message);
      const channel = message ? state.channels.get(message.channelId) : undefined;
      if (!message || !channel || !state.isVisibleTo(message, user.id) || !state.canView(channel, user.id)) {
        throw new TestInputError(`message ${input.message} does not exist or ${user.username} cannot see it`, 404);
      }
      const data = this.componentData(message, channel, user, input.customId, input.values);
      this.requireBot();
      const { record } = this.deps.interactions.create({ type: 3, user, channel, data, customId: input.customId, sourceMessage: message });
      return json(200, await this.run(record));
    });

    // A hostile or buggy client: dispatches an interaction with whatever `data` it is given, with
    // none of the checks /commands and /components make (registered options, existing buttons).
    // Real Discord validates more than this; the fuzz tests use it to prove the bot never trusts input.
    r.post('/raw-interactions', async (ctx) => {
      const input = schemas.rawInteraction.parse((await ctx.body()).json);
      const user = this.user(input.user);
      const channel = this.channelFor(user, input.channel);
      const message = input.message ? state.messages.get(input.message) ?? null : null;
      this.requireBot();
      const data = input.data as Record<string, unknown>;
      const { record } = this.deps.interactions.create({
        type: input.type,
        user,
        channel,
        data,
        commandName: typeof data.name === 'string' ? data.name : null,
        commandType: typeof data.type === 'number' ? data.type : null,
        customId: typeof data.custom_id === 'string' ? data.custom_id : null,
        sourceMessage: message,
      });
      return json(200, await this.run(record, input.wait_ms));
    });

    r.post('/modals', async (ctx) => {
      const input = schemas.modal.parse((await ctx.body()).json);
      const user = this.user(input.user);
      const pending = this.deps.interactions.pendingModals;
      const idx = pending.findLastIndex((p) => p.userId === user.id && (input.customId === undefined || p.modal.customId === input.customId));
      const modal = idx >= 0 ? pending[idx] : undefined;
      if (!modal) throw new TestInputError(`no open modal${input.customId ? ` "${input.customId}"` : ''} for ${user.username}`, 404);
      const channel = state.channels.get(modal.channelId);
      if (!channel) throw new TestInputError('the modal\'s channel no longer exists', 404);
      const components = this.modalComponents(modal.modal.components, modal.modal.fields, input.values);
      pending.splice(idx, 1);
      const source = modal.sourceMessageId ? state.messages.get(modal.sourceMessageId) : undefined;
      this.requireBot();
      const { record } = this.deps.interactions.create({
        type: 5,
        user,
        channel,
        data: { custom_id: modal.modal.customId, components },
        customId: modal.modal.customId,
        sourceMessage: source ?? null,
      });
      return json(200, await this.run(record));
    });

    r.post('/messages', async (ctx) => {
      const input = schemas.message.parse((await ctx.body()).json);
      const user = this.user(input.user);
      const channel = this.channelFor(user, input.channel);
      if (!hasPermission(state.permissionsIn(channel, user.id), Permission.SEND_MESSAGES)) {
        throw new TestInputError(`${user.username} cannot send messages in ${channel.name ?? 'this channel'}`, 403);
      }
      let replied: MessageRecord | undefined;
      if (input.replyTo) {
        replied = state.messages.get(input.replyTo);
        if (!replied || replied.channelId !== channel.id || replied.visibleTo !== null) throw new TestInputError(`message ${input.replyTo} is not in this channel`);
      }
      const message = state.createMessage({
        channelId: channel.id,
        guildId: channel.guildId,
        authorId: user.id,
        content: input.content,
        embeds: [],
        components: [],
        attachments: [],
        flags: 0,
        type: replied ? MessageKind.Reply : MessageKind.Default,
        tts: false,
        ...computeMentions(state, channel, user.id, input.content, undefined, replied),
        nonce: null,
        webhookId: null,
        applicationId: null,
        interaction: null,
        reference: replied ? { type: 0, message_id: replied.id, channel_id: channel.id, ...(channel.guildId ? { guild_id: channel.guildId } : {}) } : null,
        visibleTo: null,
      });
      return json(201, { message: this.messageView(message) });
    });

    r.get('/channels/:channel/messages', ({ params, query }) => {
      const as = query.get('as');
      const viewer = as ? this.user(as) : null;
      let channel: ChannelRecord | undefined;
      if (params.channel === 'dm') {
        if (!viewer) throw new TestInputError('channel "dm" needs ?as=<user>');
        channel = state.dmChannelOf(viewer.id);
        if (!channel) return json(200, { channel: null, messages: [] });
      } else {
        channel = state.resolveChannel(params.channel as string);
      }
      if (!channel) throw new TestInputError(`unknown channel "${params.channel}"`, 404);
      if (viewer && !state.canView(channel, viewer.id)) throw new TestInputError(`${viewer.username} cannot see this channel`, 403);
      const limit = Number(query.get('limit') ?? '0');
      let messages = state.messagesIn(channel.id).filter((m) => (viewer ? state.isVisibleTo(m, viewer.id) : m.visibleTo === null));
      if (Number.isInteger(limit) && limit > 0) messages = messages.slice(-limit);
      return json(200, { channel: this.channelSummary(channel), messages: messages.map((m) => this.messageView(m)) });
    });

    r.get('/users/:user/dms', ({ params }) => {
      const user = this.user(params.user as string);
      const channel = state.dmChannelOf(user.id);
      const messages = channel ? state.messagesIn(channel.id).filter((m) => state.isVisibleTo(m, user.id)) : [];
      return json(200, { open: user.dmsOpen, channel: channel ? this.channelSummary(channel) : null, messages: messages.map((m) => this.messageView(m)) });
    });

    r.post('/users/:user/dms', async (ctx) => {
      const user = this.user(ctx.params.user as string);
      const input = schemas.dms.parse((await ctx.body()).json);
      user.dmsOpen = input.open;
      state.emit({ type: 'dms.update', userId: user.id, open: user.dmsOpen });
      return json(200, { user: user.id, open: user.dmsOpen });
    });

    r.get('/interactions/:id', ({ params }) => {
      const rec = this.deps.interactions.byId.get(params.id as string);
      if (!rec) throw new TestInputError(`unknown interaction ${params.id}`, 404);
      return json(200, this.deps.interactions.view(rec));
    });

    // The bot's REST requests per route (requests, 2xx, 429, other refusals) and the limiter's 429s:
    // what a driver in another process reads to count a burst. DELETE starts the count again.
    r.get('/rest-stats', () =>
      json(200, { ...(this.deps.restStats?.snapshot() ?? { since: null, routes: {}, total: null }), rateLimited: this.deps.rateLimiter ? { ...this.deps.rateLimiter.counts } : null }),
    );
    r.delete('/rest-stats', () => {
      this.deps.restStats?.reset();
      return json(200, { ok: true });
    });

    // Every message of one author (a user, or "bot"), compact: for a driver to check what arrived
    // where, e.g. one board per game and one turn DM per player, without a request per channel.
    r.get('/messages', ({ query }) => {
      const author = query.get('author');
      if (!author) throw new TestInputError('give ?author=<user> or ?author=bot');
      const authorId = author === 'bot' ? state.application.botUserId : this.user(author).id;
      const out: Array<{ id: string; channelId: string; dmRecipientId: string | null; nonce: string | number | null; content: string; edited: boolean }> = [];
      for (const m of state.messages.values()) {
        if (m.authorId !== authorId) continue;
        const channel = state.channels.get(m.channelId);
        out.push({ id: m.id, channelId: m.channelId, dmRecipientId: channel?.type === 1 ? channel.recipientId : null, nonce: m.nonce, content: m.content, edited: m.editedTimestamp !== null });
      }
      return json(200, { messages: out });
    });

    r.get('/clock', () => json(200, this.clockView()));
    r.post('/clock/advance', async (ctx) => {
      const input = schemas.advance.parse((await ctx.body()).json);
      await this.deps.clock.advance(input.ms);
      const view = this.clockView();
      state.emit({ type: 'clock.advance', now: view.now, offsetMs: view.offsetMs });
      return json(200, view);
    });

    r.get('/faults', () => json(200, { faults: this.deps.faults.queue }));
    r.post('/faults', async (ctx) => {
      const input = schemas.fault.parse((await ctx.body()).json);
      return json(201, { fault: this.deps.faults.add(input) });
    });
    r.delete('/faults', () => json(200, { cleared: this.deps.faults.clear() }));

    r.get('/gateway', () => json(200, { sessions: this.deps.gateway.sessionInfo() }));
    r.post('/gateway/disconnect', async (ctx) => {
      const input = schemas.disconnect.parse((await ctx.body()).json ?? {});
      return json(200, { disconnected: this.deps.gateway.disconnect(input) });
    });

    // Server settings a moderator changes: channel overwrites, role permissions, channels. Each
    // change reaches the bot as Discord's gateway events (CHANNEL_UPDATE, GUILD_ROLE_UPDATE, CHANNEL_DELETE).
    r.get('/channels/:channel/permissions', ({ params, query }) => {
      const channel = this.settingsChannel(params.channel as string);
      const as = query.get('user');
      return json(200, this.channelPermissionsView(channel, as ? this.user(as).id : state.application.botUserId));
    });
    r.put('/channels/:channel/overwrites', async (ctx) => {
      const input = schemas.setOverwrite.parse({ ...(((await ctx.body()).json ?? {}) as object), channel: ctx.params.channel });
      const channel = this.settingsChannel(input.channel);
      state.setOverwrite(channel, this.overwriteTarget(channel, input), permissionBits(input.allow), permissionBits(input.deny));
      return json(200, this.channelPermissionsView(channel, state.application.botUserId));
    });
    r.delete('/channels/:channel/overwrites', ({ params, query }) => {
      const input = schemas.clearOverwrite.parse({ channel: params.channel, role: query.get('role') ?? undefined, user: query.get('user') ?? undefined });
      const channel = this.settingsChannel(input.channel);
      state.clearOverwrite(channel, this.overwriteTarget(channel, input).id);
      return json(200, this.channelPermissionsView(channel, state.application.botUserId));
    });
    r.delete('/channels/:channel', ({ params }) => {
      const channel = this.settingsChannel(schemas.deleteChannel.parse({ channel: params.channel }).channel);
      state.deleteChannel(channel);
      return json(200, { deleted: channel.id });
    });
    r.put('/roles/:role/permissions', async (ctx) => {
      const input = schemas.setRolePermissions.parse({ ...(((await ctx.body()).json ?? {}) as object), role: ctx.params.role });
      const guild = state.guild;
      const target = resolveOverwriteTarget(state, guild, { role: input.role });
      const role = target ? guild.roles.get(target.id) : undefined;
      if (!role) throw new TestInputError(`unknown role "${input.role}"; roles: ${[...guild.roles.values()].map((x) => x.name).join(', ')}`, 404);
      state.setRolePermissions(guild, role, permissionBits(input.permissions));
      return json(200, { role: { id: role.id, name: role.name, guild_id: guild.id }, permissions: permissionNames(role.permissions) });
    });

    r.get('/events', (ctx) => {
      this.openStream((ctx as RequestContext & { res: ServerResponse }).res);
      return null;
    });

  }

  /** A guild text channel by name (the home guild), mention or id. */
  private settingsChannel(refStr: string): ChannelRecord {
    const r = refStr.trim();
    const byId = this.state.channels.get(r.replace(/^<#(\d+)>$/, '$1'));
    const name = r.replace(/^#/, '').toLowerCase();
    const channel = byId ?? [...this.state.channels.values()].find((c) => c.guildId === this.state.guild.id && c.type === ChannelKind.GuildText && c.name === name);
    if (!channel || channel.type !== ChannelKind.GuildText) {
      const known = [...this.state.channels.values()].filter((c) => c.guildId === this.state.guild.id && c.type === ChannelKind.GuildText).map((c) => c.name);
      throw new TestInputError(`unknown channel "${refStr}"; use an id or one of: ${known.join(', ')}`, 404);
    }
    return channel;
  }

  private overwriteTarget(channel: ChannelRecord, o: { role?: string | undefined; user?: string | undefined }): { id: string; type: 0 | 1 } {
    const guild = channel.guildId ? this.state.guilds.get(channel.guildId) : undefined;
    const target = guild ? resolveOverwriteTarget(this.state, guild, o) : undefined;
    if (!target) {
      throw new TestInputError(o.role !== undefined ? `unknown role "${o.role}" in this channel's server` : `"${o.user}" is not a member of this channel's server`, 404);
    }
    return target;
  }

  private channelPermissionsView(channel: ChannelRecord, memberId: string): ChannelPermissionsView {
    const { state } = this;
    const guild = channel.guildId ? state.guilds.get(channel.guildId) : undefined;
    const user = state.users.get(memberId);
    const bits = state.computedPermissionsIn(channel, memberId);
    return {
      channel: { id: channel.id, name: channel.name, guild_id: channel.guildId },
      overwrites: channel.overwrites.map((o) => ({
        id: o.id,
        type: o.type,
        name: o.type === 0 ? (guild?.roles.get(o.id)?.name ?? o.id) : (state.users.get(o.id)?.username ?? o.id),
        allow: permissionNames(o.allow),
        deny: permissionNames(o.deny),
      })),
      member: { id: memberId, name: user?.username ?? memberId },
      permissions: permissionNames(bits),
      effective: permissionNames(state.permissionsIn(channel, memberId)),
      bits: bits.toString(),
    };
  }

  private clockView(): { now: string; offsetMs: number } {
    return { now: this.deps.clock.now().toISOString(), offsetMs: this.deps.clock.offset };
  }

  private channelSummary(c: ChannelRecord) {
    return { id: c.id, type: c.type, name: c.name, guild_id: c.guildId, recipient_id: c.recipientId };
  }

  /** Builds MESSAGE_COMPONENT data after checking the component exists, is enabled and the values are valid. */
  private componentData(message: MessageRecord, channel: ChannelRecord, user: UserRecord, customId: string, values: string[] | undefined): Record<string, unknown> {
    const comps = [...walkComponents(message.components)];
    const comp = comps.find((c) => c.custom_id === customId);
    if (!comp) {
      const ids = comps.map((c) => c.custom_id).filter((x): x is string => typeof x === 'string');
      throw new TestInputError(`message ${message.id} has no component with custom_id "${customId}"; it has: ${ids.join(', ') || 'none'}`);
    }
    if (comp.disabled === true) throw new TestInputError(`component "${customId}" is disabled and cannot be used`);
    const type = comp.type as number;
    if (type === 2) {
      if (values?.length) throw new TestInputError(`"${customId}" is a button; it takes no values`);
      return { custom_id: customId, component_type: 2 };
    }
    if (!SELECT_TYPES.has(type)) throw new TestInputError(`"${customId}" is not an interactive component`);
    const vals = values ?? [];
    const min = typeof comp.min_values === 'number' ? comp.min_values : 1;
    const max = typeof comp.max_values === 'number' ? comp.max_values : 1;
    if (vals.length < min || vals.length > max) throw new TestInputError(`select "${customId}" takes between ${min} and ${max} values (got ${vals.length})`);
    if (type === 3) {
      const options = Array.isArray(comp.options) ? (comp.options as Array<{ value: string }>).map((o) => o.value) : [];
      const bad = vals.filter((v) => !options.includes(v));
      if (bad.length) throw new TestInputError(`select "${customId}" has no option ${bad.map((b) => JSON.stringify(b)).join(', ')}; options: ${options.join(', ')}`);
      if (new Set(vals).size !== vals.length) throw new TestInputError('select values must be distinct');
      return { custom_id: customId, component_type: 3, values: vals };
    }
    // user (5), role (6), mentionable (7), channel (8) selects: values are ids; aliases and names accepted.
    const resolved: Record<string, Record<string, unknown>> = {};
    const guild = channel.guildId ? this.state.guilds.get(channel.guildId) : undefined;
    const ids = vals.map((v) => {
      const u = type === 5 || type === 7 ? this.state.resolveUser(v) : undefined;
      if (u) {
        (resolved.users ??= {})[u.id] = apiUser(u);
        const member = guild?.members.get(u.id);
        if (member) (resolved.members ??= {})[u.id] = { ...apiMemberFields(member), permissions: this.state.computedPermissionsIn(channel, u.id).toString() };
        return u.id;
      }
      const role = (type === 6 || type === 7) && guild ? this.state.resolveRole(guild, v) : undefined;
      if (role) {
        (resolved.roles ??= {})[role.id] = apiRole(role);
        return role.id;
      }
      const ch = type === 8 ? this.state.resolveChannel(v) : undefined;
      if (ch && ch.guildId === channel.guildId) {
        (resolved.channels ??= {})[ch.id] = { ...apiChannel(this.state, ch), permissions: this.state.computedPermissionsIn(ch, user.id).toString() };
        return ch.id;
      }
      throw new TestInputError(`"${v}" is not a valid value for select "${customId}"`);
    });
    return { custom_id: customId, component_type: type, values: ids, resolved };
  }

  /** Mirrors a modal's layout with the user's answers, as MODAL_SUBMIT data.components. */
  private modalComponents(
    layout: unknown[],
    fields: ReadonlyArray<{ customId: string; type: number; required: boolean; minLength: number; maxLength: number; options?: string[]; minValues?: number; maxValues?: number }>,
    values: Record<string, string | string[]>,
  ): unknown[] {
    for (const key of Object.keys(values)) {
      if (!fields.some((f) => f.customId === key)) throw new TestInputError(`the modal has no field "${key}"; fields: ${fields.map((f) => f.customId).join(', ')}`);
    }
    const answer = (field: (typeof fields)[number]): Record<string, unknown> => {
      const v = values[field.customId];
      if (field.type === 4) {
        const text = Array.isArray(v) ? v.join('\n') : (v ?? '');
        if (field.required && text === '') throw new TestInputError(`modal field "${field.customId}" is required`);
        if (text !== '' && (text.length < field.minLength || text.length > field.maxLength)) {
          throw new TestInputError(`modal field "${field.customId}" must be ${field.minLength}-${field.maxLength} characters`);
        }
        return { type: 4, custom_id: field.customId, value: text };
      }
      const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
      if (field.required && list.length < (field.minValues ?? 1)) throw new TestInputError(`modal field "${field.customId}" needs at least ${field.minValues ?? 1} value(s)`);
      if (field.options && list.some((x) => !field.options?.includes(x))) throw new TestInputError(`modal field "${field.customId}" only accepts ${field.options.join(', ')}`);
      return { type: field.type, custom_id: field.customId, values: list };
    };
    return layout.map((raw) => {
      const row = raw as Record<string, unknown>;
      if (row.type === 1) {
        const input = (row.components as Array<Record<string, unknown>>)[0] ?? {};
        const field = fields.find((f) => f.customId === input.custom_id);
        return { type: 1, id: row.id, components: field ? [{ id: input.id, ...answer(field) }] : [] };
      }
      if (row.type === 18) {
        const inner = (row.component ?? {}) as Record<string, unknown>;
        const field = fields.find((f) => f.customId === inner.custom_id);
        return { type: 18, id: row.id, component: field ? { id: inner.id, ...answer(field) } : {} };
      }
      return { type: row.type, id: row.id };
    });
  }

  private snapshot(): Record<string, unknown> {
    const { state } = this;
    const guild = state.guild;
    const app = state.application;
    return {
      application: { id: app.id, name: app.name },
      bot: apiUser(state.botUser),
      // The first guild (the web page shows it); `guilds` lists them all.
      guild: { id: guild.id, name: guild.name, owner_id: guild.ownerId, roles: [...guild.roles.values()].map(apiRole) },
      guilds: [...state.guilds.values()].map((g) => ({
        id: g.id,
        name: g.name,
        owner_id: g.ownerId,
        member_ids: [...g.members.keys()],
        channels: [...state.channels.values()].filter((c) => c.guildId === g.id).sort((a, b) => a.position - b.position).map((c) => ({ id: c.id, name: c.name })),
      })),
      channels: [...state.channels.values()]
        .filter((c) => c.type === ChannelKind.GuildText && c.guildId === guild.id)
        .sort((a, b) => a.position - b.position)
        .map((c) => ({ ...this.channelSummary(c), topic: c.topic })),
      dm_channels: [...state.channels.values()].filter((c) => c.type === ChannelKind.DM).map((c) => this.channelSummary(c)),
      users: [...state.users.values()].map((u) => {
        const member = guild.members.get(u.id);
        return {
          ...apiUser(u),
          alias: u.alias,
          dms_open: u.dmsOpen,
          roles: member?.roles ?? [],
          permissions: state.guildPermissions(guild.id, u.id).toString(),
        };
      }),
      commands: [...state.commands.values()].map((c) => toApiCommand(c)),
      rejections: state.rejections,
      gateway: { sessions: this.deps.gateway.sessionInfo() },
      clock: this.clockView(),
      interaction_timeout_ms: this.deps.interactions.timeoutMs,
    };
  }

  private openStream(res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.write('retry: 1000\n\n');
    this.streams.add(res);
    const write = (e: EmulatorEvent) => {
      res.write(`event: ${e.type}\ndata: ${JSON.stringify(this.eventData(e))}\n\n`);
    };
    const unsubscribe = this.state.on(write);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    ping.unref();
    res.on('close', () => {
      clearInterval(ping);
      unsubscribe();
      this.streams.delete(res);
    });
  }

  private eventData(e: EmulatorEvent): Record<string, unknown> {
    switch (e.type) {
      case 'message.create':
      case 'message.update':
        return { type: e.type, message: this.messageView(e.message), channel_id: e.message.channelId, visible_to: e.message.visibleTo };
      case 'rejection':
        return { type: e.type, rejection: e.rejection };
      // Records with permission bits (bigints) go out as Discord's API objects.
      case 'channel.update':
        return { type: e.type, channel: apiChannel(this.state, e.channel) };
      case 'channel.delete':
        return { type: e.type, channel_id: e.channel.id, guild_id: e.channel.guildId };
      case 'role.update':
        return { type: e.type, guild_id: e.guildId, role: apiRole(e.role) };
      default:
        return { ...e };
    }
  }

  private describe(): string[] {
    return [
      'GET  /_test/state',
      'POST /_test/commands {user, channel, name, options?}',
      'POST /_test/autocomplete {user, channel, name, options?, focused}',
      'POST /_test/components {user, message, customId, values?}',
      'POST /_test/raw-interactions {user, channel, type, data, message?, wait_ms?} (unvalidated, for fuzzing; wait_ms: stop waiting for the answer sooner)',
      'POST /_test/modals {user, customId?, values}',
      'POST /_test/messages {user, channel, content, replyTo?}',
      'GET  /_test/channels/:channel/messages?as=<user>&limit=<n>',
      'GET  /_test/users/:user/dms',
      'POST /_test/users/:user/dms {open}',
      'GET  /_test/interactions/:id',
      'GET  /_test/clock',
      'POST /_test/clock/advance {ms}',
      'GET|POST|DELETE /_test/faults',
      'GET  /_test/gateway',
      'POST /_test/gateway/disconnect {mode?, code?}',
      'GET|DELETE /_test/rejections',
      'GET  /_test/channels/:channel/permissions?user=<user> (default: the bot)',
      'PUT  /_test/channels/:channel/overwrites {role? | user?, allow?, deny?}',
      'DELETE /_test/channels/:channel/overwrites?role=<role>|user=<user>',
      'DELETE /_test/channels/:channel',
      'PUT  /_test/roles/:role/permissions {permissions}',
      'GET|DELETE /_test/rest-stats',
      'GET  /_test/messages?author=<user>|bot',
      'GET  /_test/events (Server-Sent Events)',
    ];
  }
}

