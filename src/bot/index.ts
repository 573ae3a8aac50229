import { Client, DefaultRestOptions, Events } from 'discord.js';
import { clientOptions } from './client-options.ts';
import { Dispatcher } from '../outbox/dispatcher.ts';
import { Scheduler } from '../scheduler/index.ts';
import { PhaseSchedule } from '../scheduler/phases.ts';
import type { ServiceContext } from '../services/context.ts';
import type { BotDeps, CommandModule } from './command.ts';
import type { GameModules } from './game-module.ts';
import { DiscordDeliverer } from './deliver.ts';
import { ReplyTimer } from './reply-timer.ts';
import type { RestBudget } from './rest-budget.ts';
import { createRouter } from './router.ts';
import { channelAccess } from './permissions.ts';
import { InteractionPriority } from './priority.ts';

/** Outbox deliveries started per second while interactions are in flight (src/bot/priority.ts). */
export const DEFAULT_OUTBOX_BUSY_RATE = 100;

export interface BotOptions {
  ctx: Omit<ServiceContext, 'onOutbox' | 'games'>;
  /** The games (src/games/index.ts) and the slash commands (commands/index.ts) to run. */
  games: GameModules;
  commands: Record<string, CommandModule<never>>;
  token: string;
  /** REST base, e.g. the emulator's `http://127.0.0.1:8787/api`. Unset: real Discord. */
  apiBase?: string;
  /** node-cron expression for the scheduler and outbox ticks (default every second). */
  cron?: string;
  /** Start the cron ticks (tests drive sweeps by hand when false). */
  ticks?: boolean;
  onHandled?: BotDeps['onHandled'];
  /** false: no gateway session; only deadlines and outbox deliveries over REST (a worker process). */
  gateway?: boolean;
  /** Runs before every scheduler/outbox tick (a test clock syncs here). */
  beforeTick?: () => Promise<void>;
  /** The gateway shards this process runs (src/config.ts shardOptions); unset: one shard. */
  shards?: { shards: number[] | 'auto'; shardCount?: number } | null;
  /** Discord's global REST limit for the token, requests a second (default 50): discord.js's own per-process limit. */
  globalRate?: number;
  /** The REST budget every process of the token shares (src/bot/rest-budget.ts); unset: none. */
  restBudget?: RestBudget | null;
  /**
   * Outbox deliveries started per second while interactions are being handled (src/bot/priority.ts;
   * default 100); 0: the outbox does not give way to interactions.
   */
  outboxBusyRate?: number;
}

export interface Bot {
  client: Client;
  ctx: ServiceContext;
  scheduler: Scheduler;
  dispatcher: Dispatcher;
  /** Cycles: the per-server Rest/Battle phase schedule (cron tasks from the database). */
  phaseSchedule: PhaseSchedule;
  /** Interactions in flight, which the outbox gives way to (src/bot/priority.ts). */
  priority: InteractionPriority;
  /** Runs due jobs and delivers the outbox until both are idle. */
  settle(): Promise<void>;
  /** Resolves once every interaction being handled now is done (tests: a reply the emulator answers late). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Logs in, wires the router, the scheduler and the outbox dispatcher. */
export async function startBot(opts: BotOptions): Promise<Bot> {
  const client = new Client(
    clientOptions({
      ...(opts.apiBase ? { apiBase: opts.apiBase } : {}),
      globalRate: opts.globalRate ?? 50,
      ...(opts.restBudget ? { makeRequest: opts.restBudget.wrap(DefaultRestOptions.makeRequest) } : {}),
      shards: opts.shards ?? null,
    }),
  );
  let dispatcher: Dispatcher | null = null;
  // What the bot may do in each channel, from the gateway's cache (a worker process has none: unknown).
  const channels = opts.gateway === false ? undefined : channelAccess(client, opts.games);
  const ctx: ServiceContext = { ...opts.ctx, games: opts.games, onOutbox: () => dispatcher?.kick(), ...(channels ? { channels } : {}) };
  const tickOpts = { ...(opts.cron ? { cron: opts.cron } : {}), ...(opts.beforeTick ? { beforeTick: opts.beforeTick } : {}) };
  // Clicks first: while interactions are in flight the outbox starts its deliveries at a slower pace.
  const priority = new InteractionPriority(opts.outboxBusyRate ?? DEFAULT_OUTBOX_BUSY_RATE);
  dispatcher = new Dispatcher(ctx, new DiscordDeliverer(client, ctx, opts.games), { ...tickOpts, turn: () => priority.turn() });
  const scheduler = new Scheduler(ctx, tickOpts);
  const phaseSchedule = new PhaseSchedule(ctx);
  const route = createRouter(opts.commands, { ctx, games: opts.games, phaseSchedule, replyTimer: new ReplyTimer(client), ...(opts.onHandled ? { onHandled: opts.onHandled } : {}) });
  const onInteraction = (interaction: Parameters<typeof route>[0]) => void priority.track(() => route(interaction));
  client.on(Events.InteractionCreate, onInteraction);
  guardPackets(client, ctx.log);
  // DM channels come with DM interactions and would otherwise stay cached, one per player.
  const dmSweep = setInterval(() => client.channels.cache.sweep((c) => c.isDMBased()), 10 * 60_000);
  dmSweep.unref();
  client.on(Events.Error, (err) => ctx.log.error({ err }, 'discord client error'));
  client.on(Events.ShardDisconnect, (event, shard) => ctx.log.warn({ code: event.code, shard }, 'gateway disconnected'));
  client.on(Events.ShardResume, (shard, replayed) => ctx.log.info({ shard, replayed }, 'gateway resumed'));

  if (opts.gateway === false) {
    client.token = opts.token;
    client.rest.setToken(opts.token);
    ctx.log.info('worker mode: no gateway session, deadlines and deliveries only');
  } else {
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(opts.token);
    await ready;
    ctx.log.info({ user: client.user?.tag, guilds: client.guilds.cache.size, shards: client.ws.shards.size ? [...client.ws.shards.keys()] : undefined }, 'bot connected');
  }
  if (opts.ticks !== false) {
    scheduler.start();
    dispatcher.start();
    if (opts.gateway !== false) await phaseSchedule.start();
  }
  const d = dispatcher;
  return {
    client,
    ctx,
    scheduler,
    dispatcher: d,
    phaseSchedule,
    priority,
    async settle() {
      for (let i = 0; i < 20; i++) {
        const fired = await scheduler.sweep();
        const sent = await d.drain();
        if (fired === 0 && sent === 0) return;
      }
    },
    idle: () => route.idle(),
    /**
     * A clean stop: no new interaction is taken, those in flight finish (their transactions commit
     * or roll back), the scheduler and the outbox stop claiming work once their current job and
     * batch are done, then the gateway and REST client close.
     */
    async stop() {
      client.off(Events.InteractionCreate, onInteraction);
      await route.idle();
      await phaseSchedule.stop();
      await scheduler.stop();
      await d.stop();
      clearInterval(dmSweep);
      opts.restBudget?.close();
      await client.destroy();
    },
  };
}

/**
 * One malformed gateway event must not kill the process: discord.js throws while it builds some
 * objects from a payload (a user command without `resolved`), inside its packet handling where
 * nothing catches it. Such an event is logged and dropped; the next ones are handled as usual.
 */
function guardPackets(client: Client, log: ServiceContext['log']): void {
  const ws = client.ws as unknown as { handlePacket(packet?: { t?: string }, shard?: unknown): boolean };
  const original = ws.handlePacket.bind(ws);
  ws.handlePacket = (packet, shard) => {
    try {
      return original(packet, shard);
    } catch (err) {
      log.error({ err, event: packet?.t }, 'dropped a gateway event that discord.js could not read');
      return true;
    }
  };
}
