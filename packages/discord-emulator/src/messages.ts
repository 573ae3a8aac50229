/**
 * Creating and editing messages from bot payloads (channel messages, interaction responses,
 * followups, webhook edits): validation, attachments, mentions, replies, the empty-message rule.
 */
import type { APIAllowedMentions, APIAttachment, APIMessageReference } from 'discord-api-types/v10';
import { ApiError, Errors, FormErrors, type FieldPath } from './errors.ts';
import type { UploadedFile } from './http.ts';
import { Permission } from './permissions.ts';
import type { ChannelRecord, EmulatorState, MessageInteractionInfo, MessageRecord } from './state.ts';
import { isEmptyMessage, MessageFlag, validateMessagePayload, type MessagePayload } from './validate.ts';

export const MessageKind = { Default: 0, Reply: 19, ChatInputCommand: 20, ContextMenuCommand: 23 } as const;

export interface CreateOptions {
  channel: ChannelRecord;
  authorId: string;
  files?: UploadedFile[];
  /** Where the payload sits in the request body, for error paths (['data'] in interaction callbacks). */
  prefix?: FieldPath;
  allowEphemeral?: boolean;
  /** With allowEphemeral: the user who alone sees the message when its flags include EPHEMERAL. */
  ephemeralFor?: string | null;
  type?: number;
  webhookId?: string | null;
  applicationId?: string | null;
  interaction?: MessageInteractionInfo | null;
  reference?: APIMessageReference | null;
  /** Skip the empty-message rule (deferred "thinking…" placeholders). */
  allowEmpty?: boolean;
  extraFlags?: number;
}

/** Throws the Discord error for an invalid payload; returns the validated payload otherwise. */
export function validateOrThrow(body: unknown, opts: { prefix?: FieldPath; allowEphemeral?: boolean }): MessagePayload {
  const errors = new FormErrors();
  const payload = validateMessagePayload(body, errors, opts);
  if (!errors.empty) throw ApiError.form(errors);
  return payload;
}

function buildAttachments(state: EmulatorState, channelId: string, payload: MessagePayload, files: UploadedFile[], baseUrl: string): APIAttachment[] {
  const out: APIAttachment[] = [];
  for (const file of files) {
    const meta = payload.attachments?.find((a) => a.id === String(file.index));
    const id = state.ids.next();
    const filename = (meta?.filename ?? file.filename).replace(/[^\w.-]+/g, '_');
    const url = `${baseUrl}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
    state.files.set(id, { bytes: file.bytes, contentType: file.contentType, filename });
    const a: APIAttachment = { id, filename, size: file.bytes.length, url, proxy_url: url, content_type: file.contentType };
    if (meta?.description) a.description = meta.description;
    if (meta?.title) a.title = meta.title;
    out.push(a);
  }
  return out;
}

interface Mentions {
  mentionUserIds: string[];
  mentionRoleIds: string[];
  mentionEveryone: boolean;
}

/** Who a message actually pings: the mentions in its content filtered by allowed_mentions. */
export function computeMentions(
  state: EmulatorState,
  channel: ChannelRecord,
  authorId: string,
  content: string,
  allowed: APIAllowedMentions | undefined,
  repliedTo: MessageRecord | undefined,
): Mentions {
  const parse = allowed ? new Set(allowed.parse ?? []) : new Set(['users', 'roles', 'everyone']);
  const allowUsers = new Set(allowed?.users ?? []);
  const allowRoles = new Set(allowed?.roles ?? []);
  const users = new Set<string>();
  for (const m of content.matchAll(/<@!?(\d+)>/g)) {
    const id = m[1] as string;
    if (state.users.has(id) && (parse.has('users') || allowUsers.has(id))) users.add(id);
  }
  const roles = new Set<string>();
  const guild = channel.guildId ? state.guilds.get(channel.guildId) : undefined;
  for (const m of content.matchAll(/<@&(\d+)>/g)) {
    const id = m[1] as string;
    if (guild?.roles.has(id) && (parse.has('roles') || allowRoles.has(id))) roles.add(id);
  }
  const canEveryone = (state.permissionsIn(channel, authorId) & Permission.MENTION_EVERYONE) !== 0n;
  const everyone = parse.has('everyone') && canEveryone && /@(everyone|here)\b/.test(content) && !!guild;
  if (repliedTo && (allowed ? allowed.replied_user === true : true)) users.add(repliedTo.authorId);
  return { mentionUserIds: [...users], mentionRoleIds: [...roles], mentionEveryone: everyone };
}

/** Resolves message_reference for a reply; Discord rejects unknown targets unless fail_if_not_exists is false. */
function resolveReply(state: EmulatorState, channel: ChannelRecord, payload: MessagePayload, prefix: FieldPath): MessageRecord | undefined | null {
  const ref = payload.messageReference;
  if (!ref) return undefined;
  const id = ref.message_id;
  const target = id ? state.messages.get(id) : undefined;
  const sameChannel = target && target.channelId === (ref.channel_id ?? channel.id) && target.visibleTo === null;
  if (!target || !sameChannel) {
    if (ref.fail_if_not_exists === false) return null;
    const f = new FormErrors();
    f.add([...prefix, 'message_reference'], 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message');
    throw ApiError.form(f);
  }
  return target;
}

/** Discord's upload limits for a server without boosts: 10 MiB a file, 10 attachments a message. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS = 10;

function checkUploads(files: UploadedFile[], total: number, prefix: FieldPath): void {
  if (files.some((f) => f.bytes.length > MAX_FILE_BYTES)) throw new ApiError(413, 40005, 'Request entity too large');
  if (total > MAX_ATTACHMENTS) {
    const f = new FormErrors();
    f.add([...prefix, 'attachments'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_ATTACHMENTS} or fewer in length.`);
    throw ApiError.form(f);
  }
}

export function createFromPayload(state: EmulatorState, payload: MessagePayload, opts: CreateOptions, baseUrl: string): MessageRecord {
  const channel = opts.channel;
  const prefix = opts.prefix ?? [];
  checkUploads(opts.files ?? [], (opts.files ?? []).length, prefix);
  const replied = resolveReply(state, channel, payload, prefix);
  const attachments = buildAttachments(state, channel.id, payload, opts.files ?? [], baseUrl);
  const content = payload.content ?? '';
  const embeds = payload.embeds ?? [];
  const components = payload.components ?? [];
  if (
    !opts.allowEmpty &&
    isEmptyMessage({ content, embeds, components, attachments, stickers: payload.stickerIds?.length ?? 0, poll: payload.hasPoll === true })
  ) {
    throw Errors.emptyMessage();
  }
  let flags = (payload.flags ?? 0) | (opts.extraFlags ?? 0);
  if (!opts.allowEphemeral) flags &= ~MessageFlag.EPHEMERAL;
  const visibleTo = flags & MessageFlag.EPHEMERAL ? (opts.ephemeralFor ?? null) : null;
  const mentions = computeMentions(state, channel, opts.authorId, content, payload.allowedMentions, replied ?? undefined);
  const reference: APIMessageReference | null =
    opts.reference ?? (replied ? { type: 0, message_id: replied.id, channel_id: channel.id, ...(channel.guildId ? { guild_id: channel.guildId } : {}) } : null);
  return state.createMessage({
    channelId: channel.id,
    guildId: channel.guildId,
    authorId: opts.authorId,
    content,
    embeds,
    components,
    attachments,
    flags,
    type: opts.type ?? (replied ? MessageKind.Reply : MessageKind.Default),
    tts: payload.tts ?? false,
    ...mentions,
    nonce: payload.nonce ?? null,
    webhookId: opts.webhookId ?? null,
    applicationId: opts.applicationId ?? null,
    interaction: opts.interaction ?? null,
    reference,
    visibleTo,
  });
}

/** Applies an edit payload (absent fields unchanged; `attachments` lists what to keep). */
export function editFromPayload(
  state: EmulatorState,
  message: MessageRecord,
  payload: MessagePayload,
  files: UploadedFile[],
  baseUrl: string,
  opts: { clearLoading?: boolean } = {},
): MessageRecord {
  const channel = state.channels.get(message.channelId);
  if (!channel) throw Errors.unknownChannel();
  let attachments = message.attachments;
  if (payload.attachments !== undefined) {
    const keep = new Set(payload.attachments.map((a) => a.id));
    attachments = message.attachments.filter((a) => keep.has(a.id));
  }
  checkUploads(files, attachments.length + files.length, []);
  attachments = [...attachments, ...buildAttachments(state, channel.id, payload, files, baseUrl)];
  const content = payload.content ?? message.content;
  const embeds = payload.embeds ?? message.embeds;
  const components = payload.components ?? message.components;
  if (isEmptyMessage({ content, embeds, components, attachments, stickers: 0 })) throw Errors.emptyMessage();
  let flags = message.flags;
  if (payload.flags !== undefined) {
    // Only SUPPRESS_EMBEDS can be toggled, and IS_COMPONENTS_V2 set, on an existing message.
    flags = (flags & ~MessageFlag.SUPPRESS_EMBEDS) | (payload.flags & MessageFlag.SUPPRESS_EMBEDS) | (payload.flags & MessageFlag.IS_COMPONENTS_V2);
  }
  if (opts.clearLoading) flags &= ~MessageFlag.LOADING;
  const patch: Partial<MessageRecord> = { content, embeds, components, attachments, flags };
  if (payload.content !== undefined || payload.allowedMentions !== undefined) {
    const replied = message.reference?.message_id ? state.messages.get(message.reference.message_id) : undefined;
    Object.assign(patch, computeMentions(state, channel, message.authorId, content, payload.allowedMentions, message.type === MessageKind.Reply ? replied : undefined));
  }
  return state.updateMessage(message, patch);
}
