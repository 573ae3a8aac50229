/**
 * Turns state records into Discord API v10 objects, the shapes discord.js parses. Field names and
 * defaults follow what Discord sends today (nulls included), so discord.js structures are fully built.
 */
import type {
  APIGuild,
  GuildSystemChannelFlags,
  Locale,
  GatewayGuildCreateDispatchData,
  APIChannel,
  APIGuildMember,
  APIMessage,
  APIMessageInteractionMetadata,
  APIRole,
  APIUser,
  GuildMemberFlags,
  MessageType,
  RoleFlags,
  UserFlags,
} from 'discord-api-types/v10';
import { ChannelKind, type ChannelRecord, type EmulatorState, type GuildRecord, type MemberRecord, type MessageRecord, type RoleRecord, type UserRecord } from './state.ts';

export function apiUser(u: UserRecord): APIUser {
  const user: APIUser = {
    id: u.id,
    username: u.username,
    discriminator: u.discriminator,
    global_name: u.globalName,
    avatar: null,
    public_flags: 0 as UserFlags,
    flags: 0 as UserFlags,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
  if (u.bot) user.bot = true;
  return user;
}

/** GET /users/@me for the bot: the private fields a bot sees about itself. */
export function apiCurrentUser(u: UserRecord): APIUser {
  return { ...apiUser(u), mfa_enabled: false, locale: 'en-US', verified: true, email: null, premium_type: 0 };
}

export function apiRole(r: RoleRecord): APIRole {
  const role: APIRole = {
    id: r.id,
    name: r.name,
    color: r.color,
    colors: { primary_color: r.color, secondary_color: null, tertiary_color: null },
    hoist: r.hoist,
    icon: null,
    unicode_emoji: null,
    position: r.position,
    permissions: r.permissions.toString(),
    managed: r.managed,
    mentionable: r.mentionable,
    flags: 0 as RoleFlags,
  };
  if (r.botId) role.tags = { bot_id: r.botId };
  return role;
}

type MemberFields = Omit<APIGuildMember, 'user'>;

export function apiMemberFields(m: MemberRecord): MemberFields {
  return {
    nick: m.nick,
    avatar: null,
    banner: null,
    roles: [...m.roles],
    joined_at: m.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    pending: false,
    communication_disabled_until: null,
  };
}

export function apiMember(state: EmulatorState, m: MemberRecord): APIGuildMember {
  const user = state.users.get(m.userId);
  if (!user) throw new Error(`member ${m.userId} has no user`);
  return { ...apiMemberFields(m), user: apiUser(user) };
}

export function apiChannel(state: EmulatorState, c: ChannelRecord): APIChannel {
  if (c.thread) {
    const count = state.messagesIn(c.id).filter((m) => m.visibleTo === null).length;
    return {
      id: c.id,
      type: c.type,
      guild_id: c.guildId ?? undefined,
      name: c.name ?? '',
      parent_id: c.thread.parentId,
      owner_id: c.thread.ownerId,
      last_message_id: c.lastMessageId,
      rate_limit_per_user: 0,
      flags: 0,
      message_count: count,
      member_count: c.thread.memberIds.length,
      total_message_sent: count,
      thread_metadata: {
        archived: false,
        archive_timestamp: c.thread.createdAt,
        auto_archive_duration: c.thread.autoArchiveMinutes,
        locked: false,
        create_timestamp: c.thread.createdAt,
        ...(c.type === ChannelKind.PrivateThread ? { invitable: true } : {}),
      },
    } as unknown as APIChannel;
  }
  if (c.type === ChannelKind.DM) {
    const recipient = c.recipientId ? state.users.get(c.recipientId) : undefined;
    return {
      id: c.id,
      type: 1,
      last_message_id: c.lastMessageId,
      flags: 0,
      recipients: recipient ? [apiUser(recipient)] : [],
    } as unknown as APIChannel;
  }
  return {
    id: c.id,
    type: 0,
    guild_id: c.guildId ?? undefined,
    name: c.name ?? '',
    position: c.position,
    permission_overwrites: c.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() })),
    topic: c.topic,
    nsfw: false,
    last_message_id: c.lastMessageId,
    rate_limit_per_user: 0,
    parent_id: null,
    last_pin_timestamp: null,
    flags: 0,
  } as unknown as APIChannel;
}

/** The guild object of GET /guilds/:id (no channels or members). */
export function apiGuild(g: GuildRecord, withCounts = false): APIGuild & { [field: string]: unknown } {
  const base: APIGuild & { [field: string]: unknown } = {
    id: g.id,
    name: g.name,
    icon: null,
    icon_hash: null,
    splash: null,
    discovery_splash: null,
    owner_id: g.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    default_message_notifications: 1,
    explicit_content_filter: 0,
    roles: [...g.roles.values()].map(apiRole),
    emojis: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: g.systemChannelId,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    max_presences: null,
    max_members: 500000,
    vanity_url_code: null,
    description: null,
    home_header: null,
    hub_type: null,
    // Deprecated on Discord (voice regions are per channel now) but still sent and required by its spec.
    region: 'deprecated',
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: g.preferredLocale as Locale,
    public_updates_channel_id: null,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    nsfw_level: 0,
    nsfw: false,
    stickers: [],
    premium_progress_bar_enabled: false,
    safety_alerts_channel_id: null,
    incidents_data: null,
  };
  if (withCounts) {
    base.approximate_member_count = g.members.size;
    base.approximate_presence_count = 0;
  }
  return base;
}

/** The GUILD_CREATE payload: the guild plus everything the gateway adds for a bot that just connected. */
export function apiGatewayGuild(state: EmulatorState, g: GuildRecord): GatewayGuildCreateDispatchData & { [field: string]: unknown } {
  const botMember = g.members.get(state.application.botUserId);
  const channels = [...state.channels.values()]
    .filter((c) => c.guildId === g.id && !c.thread)
    .sort((a, b) => a.position - b.position)
    .map((c) => apiChannel(state, c) as GatewayGuildCreateDispatchData['channels'][number]);
  return {
    ...apiGuild(g),
    joined_at: botMember?.joinedAt ?? state.nowIso(),
    large: false,
    unavailable: false,
    lazy: true,
    member_count: g.members.size,
    voice_states: [],
    members: [...g.members.values()].map((m) => apiMember(state, m)),
    channels,
    threads: [...state.channels.values()].filter((c) => c.thread && c.guildId === g.id).map((c) => apiChannel(state, c)) as GatewayGuildCreateDispatchData['threads'],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    application_command_counts: {},
  };
}

export interface MessageViewOptions {
  /** Gateway events carry guild_id and the author's partial member; REST responses do not. */
  gateway?: boolean;
  /** Empty the content fields (a gateway session without the MESSAGE_CONTENT intent). */
  stripContent?: boolean;
  /** Echo the nonce (create responses and MESSAGE_CREATE only). */
  includeNonce?: boolean;
  /** Depth guard for referenced_message. */
  depth?: number;
}

export function apiMessage(state: EmulatorState, m: MessageRecord, opts: MessageViewOptions = {}): APIMessage {
  const author = state.users.get(m.authorId);
  if (!author) throw new Error(`message ${m.id} has no author`);
  const mentions = m.mentionUserIds.map((id) => state.users.get(id)).filter((u): u is UserRecord => !!u).map(apiUser);
  const strip = opts.stripContent === true;
  const msg: APIMessage = {
    id: m.id,
    type: m.type as MessageType,
    content: strip ? '' : m.content,
    channel_id: m.channelId,
    author: apiUser(author),
    attachments: strip ? [] : m.attachments.map((a) => ({ ...a })),
    embeds: strip ? [] : structuredClone(m.embeds),
    mentions,
    mention_roles: [...m.mentionRoleIds],
    pinned: m.pinned,
    mention_everyone: m.mentionEveryone,
    tts: m.tts,
    timestamp: m.timestamp,
    edited_timestamp: m.editedTimestamp,
    flags: m.flags,
    components: strip ? [] : structuredClone(m.components),
  };
  if (m.reactions.length) {
    msg.reactions = m.reactions.map((r) => ({
      emoji: { id: r.emoji.id, name: r.emoji.name, ...(r.emoji.animated ? { animated: true } : {}) },
      count: r.userIds.length,
      count_details: { burst: 0, normal: r.userIds.length },
      burst_colors: [],
      me_burst: false,
      me: r.userIds.includes(state.application.botUserId),
    })) as APIMessage['reactions'];
  }
  if (opts.includeNonce && m.nonce !== null) msg.nonce = m.nonce;
  if (m.webhookId) msg.webhook_id = m.webhookId;
  if (m.applicationId) msg.application_id = m.applicationId;
  if (m.reference) {
    msg.message_reference = { ...m.reference };
    if ((opts.depth ?? 0) < 1 && m.reference.message_id && (m.type === 19 || m.type === 20 || m.type === 23)) {
      const ref = state.messages.get(m.reference.message_id);
      msg.referenced_message = ref ? apiMessage(state, ref, { ...opts, includeNonce: false, depth: (opts.depth ?? 0) + 1 }) : null;
    }
  }
  if (m.interaction) {
    const i = m.interaction;
    const user = state.users.get(i.userId);
    if (user) {
      const guildId = m.guildId;
      const meta: Record<string, unknown> = {
        id: i.id,
        type: i.type,
        user: apiUser(user),
        authorizing_integration_owners: { '0': guildId ?? '0' },
      };
      if (i.originalResponseMessageId) meta.original_response_message_id = i.originalResponseMessageId;
      if (i.interactedMessageId) meta.interacted_message_id = i.interactedMessageId;
      msg.interaction_metadata = meta as unknown as APIMessageInteractionMetadata;
      if (i.type === 2 && i.name !== null && !i.originalResponseMessageId) {
        const member = guildId ? state.member(guildId, i.userId) : undefined;
        msg.interaction = {
          id: i.id,
          type: 2,
          name: i.name,
          user: apiUser(user),
          ...(member
            ? {
                member: {
                  avatar: null,
                  communication_disabled_until: null,
                  deaf: false,
                  joined_at: member.joinedAt,
                  mute: false,
                  nick: member.nick,
                  pending: false,
                  premium_since: null,
                  roles: [...member.roles],
                },
              }
            : {}),
        } as APIMessage['interaction'];
      }
    }
  }
  if (opts.gateway) {
    // Gateway message events add guild_id, the author's member and the channel type.
    const withGuild = msg as APIMessage & { guild_id?: string; member?: Omit<APIGuildMember, 'user'>; channel_type?: number };
    const channel = state.channels.get(m.channelId);
    if (channel) withGuild.channel_type = channel.type;
    if (m.guildId) {
      withGuild.guild_id = m.guildId;
      const member = state.member(m.guildId, m.authorId);
      if (member && !m.webhookId) withGuild.member = apiMemberFields(member);
    }
  }
  // A thread started from this message has the message's id.
  const thread = state.channels.get(m.id);
  if (thread?.thread && thread.thread.parentId === m.channelId) msg.thread = apiChannel(state, thread) as APIMessage['thread'];
  return msg;
}
