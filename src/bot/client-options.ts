import { GatewayIntentBits, Options, Partials, type ClientOptions, type RESTOptions } from 'discord.js';

/**
 * The discord.js client Stonehall runs: what it listens to, caches and sends through. Also what the
 * bench's floor bot (bench/floor-bot-main.ts) runs, so the two are compared on the same client.
 */
export function clientOptions(opts: {
  /** REST base, e.g. the emulator's `http://127.0.0.1:8787/api`. Unset: real Discord. */
  apiBase?: string;
  /** Discord's global REST limit for the token, requests a second: discord.js's own per-process limit. */
  globalRate: number;
  /** Wraps every HTTP attempt (the REST budget every process of the token shares, src/bot/rest-budget.ts). */
  makeRequest?: RESTOptions['makeRequest'];
  /** The gateway shards this process runs (src/config.ts shardOptions); null: one shard. */
  shards?: { shards: number[] | 'auto'; shardCount?: number } | null;
}): ClientOptions {
  return {
    // Guilds only: the bot reads no messages. Interactions (DMs included) need no intent; the
    // DirectMessages intent only echoed the bot's own DMs back (about two events per move), which
    // discord.js then cached (up to 200 per DM channel, a channel per player).
    intents: [GatewayIntentBits.Guilds],
    // A DM interaction brings its channel as a partial: no cache of DM channels is needed.
    partials: [Partials.Channel],
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      // Nothing reads cached messages; a clicked message comes with its interaction.
      MessageManager: 0,
      GuildMessageManager: 0,
      DMMessageManager: 0,
      ReactionManager: 0,
      ReactionUserManager: 0,
      PresenceManager: 0,
      VoiceStateManager: 0,
      StageInstanceManager: 0,
      GuildScheduledEventManager: 0,
      GuildStickerManager: 0,
      GuildEmojiManager: 0,
      GuildInviteManager: 0,
      GuildBanManager: 0,
      AutoModerationRuleManager: 0,
      ThreadMemberManager: 0,
      ApplicationCommandManager: 0,
      // Members and users arrive with each interaction: keep a few, never the bot itself.
      GuildMemberManager: { maxSize: 200, keepOverLimit: (m) => m.id === m.client.user.id },
      UserManager: { maxSize: 1000, keepOverLimit: (u) => u.id === u.client.user.id },
    }),
    rest: {
      ...(opts.apiBase ? { api: opts.apiBase } : {}),
      // discord.js keeps its own limiter per process (a second guard); the shared budget wraps
      // every HTTP attempt it makes, retries included.
      globalRequestsPerSecond: opts.globalRate,
      ...(opts.makeRequest ? { makeRequest: opts.makeRequest } : {}),
    },
    ...(opts.shards ?? {}),
  };
}
