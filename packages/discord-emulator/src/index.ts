/**
 * A local Discord: an HTTP + WebSocket server speaking Discord API v10 well enough for an unmodified
 * discord.js v14 client (REST under /api, gateway at /gateway), plus a test API (/_test) to act as
 * users and a small web page (/) to play. See the package README.
 *
 *   const emulator = await startEmulator({ port: 0 });
 *   const client = new Client({ intents: [...], rest: { api: emulator.apiBase } });
 *   await client.login(emulator.botToken);
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OffsetClock, type EmulatorClock } from './clock.ts';
import { EmulatorClient } from './client.ts';
import { Faults } from './faults.ts';
import { Gateway } from './gateway.ts';
import { send } from './http.ts';
import { Interactions } from './interactions.ts';
import { consoleLogger, type EmulatorLogger } from './logger.ts';
import { servePage } from './page.ts';
import { Persistence } from './persist.ts';
import { RateLimiter, type RateLimitOptions } from './rate-limits.ts';
import { RestApi, type RestExchange } from './rest.ts';
import { RestStats } from './rest-stats.ts';
import { defaultBotToken, exampleServer, seedServer, type ChannelName, type GuildHandles, type RoleName, type ServerDefinition, type UserAlias } from './server.ts';
import { EmulatorState } from './state.ts';
import { TestApi } from './test-api.ts';

export { EmulatorClient, EmulatorClientError } from './client.ts';
export { OffsetClock, type EmulatorClock } from './clock.ts';
export type { EmulatorLogger } from './logger.ts';
export { silentLogger, consoleLogger } from './logger.ts';
export { EmulatorState } from './state.ts';
export type { EmulatorEvent, MessageRecord, UserRecord, ChannelRecord, CommandRecord, Rejection } from './state.ts';
export { addMember, exampleServer, seedServer, DEFAULT_BOT_PERMISSIONS, permissionBits, permissionNames } from './server.ts';
export type { ServerDefinition, GuildDefinition, UserDefinition, RoleDefinition, ChannelDefinition, OverwriteDefinition, PermissionName, GuildHandle, UserAlias, ChannelName, RoleName } from './server.ts';
export { Permission, implicitPermissions } from './permissions.ts';
export type { SetOverwriteRequest, ClearOverwriteRequest, SetRolePermissionsRequest, DeleteChannelRequest, ChannelPermissionsView, RolePermissionsView } from './test-api.ts';
export type { InteractionResult, CommandRequest, ComponentRequest, AutocompleteRequest, ModalRequest, UserMessageRequest, FaultRequest } from './test-api.ts';
export type { FaultSpec } from './faults.ts';
export type { RestExchange } from './rest.ts';
export { RestStats, type RouteStats } from './rest-stats.ts';
export { DEFAULT_ROUTE_LIMITS, RateLimiter, type RateLimitOptions, type RouteLimit } from './rate-limits.ts';

export interface EmulatorOptions<S extends ServerDefinition = ServerDefinition> {
  /** The guilds, channels, roles and users to start with (default `exampleServer`). */
  server?: S;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The time source (default: a new OffsetClock). Pass the bot's own offset clock so both agree. */
  clock?: EmulatorClock;
  botToken?: string;
  logger?: EmulatorLogger;
  /** How long the bot has to send the initial interaction response (default 3000 ms, as on Discord). */
  interactionTimeoutMs?: number;
  /**
   * A folder that keeps what happened (messages, DM channels, commands, files, the clock's offset)
   * across restarts; created if missing. Without it everything lives in memory only.
   */
  dataDir?: string;
  /**
   * Discord's rate limits (default on: 50 requests a second per bot, per-route buckets with
   * `X-RateLimit-*` headers and 429 answers). `false` turns them off, for tests that send far more
   * than a bot may; an object changes the figures.
   */
  rateLimits?: false | RateLimitOptions;
  /** Called with every REST request of the bot and the emulator's answer (to record them, or check them against Discord's spec). */
  onRestExchange?: (exchange: RestExchange) => void;
  /**
   * The shard count `GET /gateway/bot` recommends (default: one per 1,000 guilds, at least one).
   * Sessions that identify with `shard: [id, count]` receive the events of the guilds Discord would
   * route to them, `(guild_id >> 22) % count`, and DMs on shard 0.
   */
  recommendedShards?: number;
}

export interface Emulator<S extends ServerDefinition = ServerDefinition> {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `${url}/api`: pass as discord.js `rest.api` */
  apiBase: string;
  /** ws://127.0.0.1:PORT/gateway */
  gatewayUrl: string;
  botToken: string;
  applicationId: string;
  botUserId: string;
  /** The first guild of the server definition. */
  guildId: string;
  /** Every user of the definition: alias -> id. */
  users: Record<UserAlias<S>, string>;
  /** The first guild's channels: name -> id. */
  channels: Record<ChannelName<S['guilds'][0]>, string>;
  /** The first guild's roles: name -> id. */
  roles: Record<RoleName<S['guilds'][0]>, string>;
  /** Every guild, in the order of the definition, with its channel and role ids. */
  guilds: GuildHandles<S>;
  clock: EmulatorClock;
  /** The in-memory model; tests may read it (mutate it only through the test API). */
  state: EmulatorState;
  /** The REST routes it serves (method and pattern, e.g. "/channels/:channelId/messages"). */
  restRoutes: Array<{ method: string; pattern: string }>;
  /** The rate limiter (null when `rateLimits: false`); `counts` tells how many 429s it answered. */
  rateLimiter: RateLimiter | null;
  /** The bot's REST requests per route and how they were answered (also `GET /_test/rest-stats`). */
  restStats: RestStats;
  /** A test API client bound to this emulator. */
  client: EmulatorClient;
  /** How many records the emulator holds in memory (a memory report): messages, interactions, files whose bytes are in memory. */
  records(): { messages: number; interactions: number; filesInMemory: number };
  close(): Promise<void>;
}

export async function startEmulator<const S extends ServerDefinition = typeof exampleServer>(opts: EmulatorOptions<S> = {}): Promise<Emulator<S>> {
  const clock = opts.clock ?? new OffsetClock();
  const logger = opts.logger ?? consoleLogger;
  const host = opts.host ?? '127.0.0.1';
  const state = new EmulatorState(clock);
  const seed = seedServer(state, (opts.server ?? exampleServer) as S);
  const home = seed.guilds[0] as GuildHandles<S>[0];
  const persistence = opts.dataDir
    ? await Persistence.open(opts.dataDir, state, clock, { onError: (err) => logger.error({ err }, 'emulator: saving its state failed') })
    : null;
  const botToken = opts.botToken ?? defaultBotToken(seed.botUserId);

  let url = '';
  let gatewayUrl = '';
  const gateway = new Gateway(state, { botToken, logger, gatewayUrl: () => gatewayUrl });
  const faults = new Faults();
  const interactions = new Interactions(state, gateway, { timeoutMs: opts.interactionTimeoutMs ?? 3000, baseUrl: () => url, logger });
  const rateLimiter = opts.rateLimits === false ? null : new RateLimiter(opts.rateLimits ?? {});
  const restStats = new RestStats();
  const rest = new RestApi({ state, interactions, gateway, faults, rateLimiter, stats: restStats, ...(opts.onRestExchange ? { onExchange: opts.onRestExchange } : {}), logger, botToken, baseUrl: () => url, gatewayUrl: () => gatewayUrl, recommendedShards: () => opts.recommendedShards ?? Math.max(1, Math.ceil(state.guilds.size / 1000)) });
  const testApi = new TestApi({ state, interactions, gateway, faults, clock, logger, rateLimiter, restStats });

  const server = http.createServer((req, res) => {
    void (async () => {
      const reqUrl = new URL(req.url ?? '/', 'http://localhost');
      try {
        if (await rest.handle(req, res, reqUrl)) return;
        if (await testApi.handle(req, res, reqUrl)) return;
        if (await servePage(req, res, reqUrl)) return;
        const attachment = /^\/attachments\/\d+\/(\d+)\/[^/]+$/.exec(reqUrl.pathname);
        const file = attachment ? state.files.get(attachment[1] as string) : undefined;
        if (file) {
          send(res, { status: 200, bytes: file.bytes, contentType: file.contentType });
          return;
        }
        send(res, { status: 404, json: { message: '404: Not Found', code: 0 } });
      } catch (err) {
        logger.error({ err }, 'emulator: request failed');
        send(res, { status: 500, json: { message: '500: Internal Server Error', code: 0 } });
      }
    })();
  });
  server.on('upgrade', (req, socket, head) => gateway.handleUpgrade(req, socket, head));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  url = `http://${urlHost}:${port}`;
  gatewayUrl = `ws://${urlHost}:${port}/gateway`;
  logger.info({ url }, `Discord emulator listening on ${url}`);

  let closed = false;
  return {
    url,
    apiBase: `${url}/api`,
    gatewayUrl,
    botToken,
    applicationId: seed.applicationId,
    botUserId: seed.botUserId,
    guildId: home.id,
    users: seed.users,
    channels: home.channels,
    roles: home.roles,
    guilds: seed.guilds,
    clock,
    state,
    rateLimiter,
    restStats,
    restRoutes: rest.served(),
    client: new EmulatorClient(url),
    records: () => ({
      messages: state.messages.size,
      interactions: interactions.byId.size,
      filesInMemory: [...state.files.values()].filter((f) => Object.getOwnPropertyDescriptor(f, 'bytes')?.get === undefined).length,
    }),
    async close() {
      if (closed) return;
      closed = true;
      testApi.close();
      await gateway.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await persistence?.close();
    },
  };
}
