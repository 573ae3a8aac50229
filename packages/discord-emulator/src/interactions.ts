/**
 * Interactions: building INTERACTION_CREATE payloads, the initial-response callback (one per
 * interaction, within the 3 s window) and the interaction webhook (@original, followups), with
 * Discord's rules: 40060 on a second acknowledgement, 10062 once expired or unknown, tokens valid
 * for 15 minutes, ephemeral messages visible only to the invoking user.
 */
import { randomBytes } from 'node:crypto';
import type { APIBaseInteraction, APIMessage, InteractionType as ApiInteractionType, Locale } from 'discord-api-types/v10';
import { ApiError, Errors, FormErrors } from './errors.ts';
import type { Gateway } from './gateway.ts';
import { json, noContent, type Reply, type UploadedFile } from './http.ts';
import type { EmulatorLogger } from './logger.ts';
import { createFromPayload, editFromPayload, MessageKind, validateOrThrow } from './messages.ts';
import { apiChannel, apiMember, apiMessage, apiUser } from './serialize.ts';
import type { ChannelRecord, EmulatorState, MessageInteractionInfo, MessageRecord, UserRecord } from './state.ts';
import { MessageFlag, validateAutocompleteData, validateModalData, type Choice, type ModalDefinition } from './validate.ts';

export const InteractionType = { Ping: 1, ApplicationCommand: 2, MessageComponent: 3, Autocomplete: 4, ModalSubmit: 5 } as const;

export const CallbackType = {
  Pong: 1,
  ChannelMessageWithSource: 4,
  DeferredChannelMessageWithSource: 5,
  DeferredUpdateMessage: 6,
  UpdateMessage: 7,
  AutocompleteResult: 8,
  Modal: 9,
} as const;

/** Which initial responses each interaction type accepts. */
const ALLOWED_CALLBACKS: Record<number, readonly number[]> = {
  2: [4, 5, 9],
  3: [4, 5, 6, 7, 9],
  4: [8],
  5: [4, 5, 6, 7],
};

const TOKEN_LIFETIME_MS = 15 * 60_000;
const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

export interface InteractionRecord {
  id: string;
  token: string;
  type: number;
  userId: string;
  channelId: string;
  guildId: string | null;
  /** Real time (Date.now) of creation: the 3 s response window is real time. */
  createdAtReal: number;
  /** Emulator time of creation: the 15 min token lifetime follows the emulator clock. */
  createdAtEmu: number;
  /** "knucklebones join" for commands and autocomplete; null otherwise. */
  commandName: string | null;
  commandType: number | null;
  customId: string | null;
  /** The message holding the component (type 3), or the message a modal was opened from. */
  sourceMessageId: string | null;
  responseType: number | null;
  expired: boolean;
  /** The message @original designates, once there is one. */
  originalMessageId: string | null;
  followupIds: string[];
  choices: Choice[] | null;
  modal: ModalDefinition | null;
  waiters: Array<() => void>;
}

export interface InteractionOutcome {
  type: number;
  /** The created/updated message as the invoking user sees it (types 4, 5, 6, 7). */
  message?: APIMessage;
  choices?: Choice[];
  modal?: { custom_id: string; title: string; components: unknown[] };
}

export interface CreateInteractionInput {
  type: 2 | 3 | 4 | 5;
  user: UserRecord;
  channel: ChannelRecord;
  data: Record<string, unknown>;
  commandName?: string | null;
  commandType?: number | null;
  customId?: string | null;
  sourceMessage?: MessageRecord | null;
}

export interface PendingModal {
  interactionId: string;
  userId: string;
  channelId: string;
  sourceMessageId: string | null;
  modal: ModalDefinition;
}

export class Interactions {
  readonly byId = new Map<string, InteractionRecord>();
  private readonly byToken = new Map<string, InteractionRecord>();
  /** Modals shown to users and not yet submitted, oldest first. */
  readonly pendingModals: PendingModal[] = [];

  constructor(
    private readonly state: EmulatorState,
    private readonly gateway: Gateway,
    private readonly opts: { timeoutMs: number; baseUrl: () => string; logger: EmulatorLogger },
  ) {}

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /**
   * Forgets interactions nothing can use any more: their token is past its 15 minutes of emulator
   * time (callbacks and webhooks refuse it), their 3 s window closed, and no one waits on them.
   * Records are kept in creation order, so the oldest come first and the walk stops at the first
   * still in use. Without it every click of a long session stayed in memory for good.
   */
  private forgetSpent(): void {
    const now = this.state.now().getTime();
    const real = Date.now();
    for (const rec of this.byId.values()) {
      const answeredOrClosed = rec.responseType !== null || real - rec.createdAtReal > this.opts.timeoutMs + 5;
      if (now - rec.createdAtEmu <= TOKEN_LIFETIME_MS || !answeredOrClosed || rec.waiters.length) return;
      this.byId.delete(rec.id);
      this.byToken.delete(rec.token);
    }
  }

  /** Creates the interaction and dispatches INTERACTION_CREATE. */
  create(input: CreateInteractionInput): { record: InteractionRecord; delivered: number } {
    const { state } = this;
    this.forgetSpent();
    const id = state.ids.next();
    const token = `aW50ZXJhY3Rpb246${Buffer.from(`${id}:`).toString('base64url')}${randomBytes(48).toString('base64url')}`;
    const channel = input.channel;
    const guild = channel.guildId ? state.guilds.get(channel.guildId) : undefined;
    const userPerms = state.computedPermissionsIn(channel, input.user.id);
    const botPerms = state.computedPermissionsIn(channel, state.application.botUserId);
    // The envelope every interaction shares, typed by discord-api-types (a missing or mistyped
    // field fails the type check); `data` is whatever the caller built for the interaction's type.
    const payload: Omit<APIBaseInteraction<ApiInteractionType, unknown>, 'type'> & { type: number; [field: string]: unknown } = {
      app_permissions: botPerms.toString(),
      application_id: state.application.id,
      attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
      authorizing_integration_owners: { '0': guild ? guild.id : '0' },
      // Discord adds the user's permissions to the channel (discord-api-types does not list them).
      channel: Object.assign(apiChannel(state, channel), { permissions: userPerms.toString() }),
      channel_id: channel.id,
      context: guild ? 0 : 1,
      data: input.data,
      entitlements: [],
      id,
      locale: 'en-US' as Locale,
      token,
      type: input.type,
      version: 1,
    };
    if (guild) {
      const member = guild.members.get(input.user.id);
      if (!member) throw new ApiError(400, 0, `${input.user.username} is not a member of ${guild.name}`);
      payload.guild = { id: guild.id, locale: guild.preferredLocale as Locale, features: [] };
      payload.guild_id = guild.id;
      payload.guild_locale = guild.preferredLocale as Locale;
      payload.member = { ...apiMember(state, member), permissions: userPerms.toString() };
    } else {
      payload.user = apiUser(input.user);
    }
    if (input.sourceMessage) payload.message = apiMessage(state, input.sourceMessage);

    const record: InteractionRecord = {
      id,
      token,
      type: input.type,
      userId: input.user.id,
      channelId: channel.id,
      guildId: guild?.id ?? null,
      createdAtReal: Date.now(),
      createdAtEmu: state.now().getTime(),
      // Not the payload sent to the bot: it holds a whole copy of the source message (a panel with
      // its menus), nothing reads it after dispatch, and records are kept for the test API's view.
      commandName: input.commandName ?? null,
      commandType: input.commandType ?? null,
      customId: input.customId ?? null,
      sourceMessageId: input.sourceMessage?.id ?? null,
      responseType: null,
      expired: false,
      originalMessageId: null,
      followupIds: [],
      choices: null,
      modal: null,
      waiters: [],
    };
    this.byId.set(id, record);
    this.byToken.set(token, record);
    state.emit({ type: 'interaction.create', id, interactionType: input.type, userId: input.user.id, channelId: channel.id, name: record.commandName ?? record.customId });
    const delivered = this.gateway.dispatchInteraction(payload, record.guildId);
    // Discord says nothing to the bot when its answer window closes; the emulator logs it, so a
    // slow handler shows up in the server log and not only as a failed interaction in the page.
    setTimeout(() => {
      if (record.responseType !== null) return;
      record.expired = true;
      this.opts.logger.warn(
        { interaction: id, name: record.commandName ?? record.customId, user: record.userId, timeoutMs: this.opts.timeoutMs, delivered },
        'the bot did not answer an interaction in time: Discord shows "The application did not respond"',
      );
    }, this.opts.timeoutMs + 5).unref();
    return { record, delivered };
  }

  private isExpired(rec: InteractionRecord): boolean {
    if (rec.responseType !== null) return false;
    if (!rec.expired && Date.now() - rec.createdAtReal > this.opts.timeoutMs) rec.expired = true;
    return rec.expired;
  }

  /**
   * Waits for the initial response (or the timeout, then the interaction is dead: null).
   * `maxWaitMs` stops waiting sooner (null) without ending the interaction: its window stays open,
   * as on Discord, where a client that stops watching does not shorten the bot's 3 seconds.
   */
  wait(rec: InteractionRecord, maxWaitMs?: number): Promise<InteractionOutcome | null> {
    if (rec.responseType !== null) return Promise.resolve(this.outcome(rec));
    if (this.isExpired(rec)) return Promise.resolve(null);
    const remaining = Math.max(0, this.opts.timeoutMs - (Date.now() - rec.createdAtReal));
    const giveUpFirst = maxWaitMs !== undefined && maxWaitMs < remaining;
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(this.outcome(rec));
      };
      const timer = setTimeout(
        () => {
          rec.waiters = rec.waiters.filter((w) => w !== done);
          if (rec.responseType === null) {
            if (!giveUpFirst) rec.expired = true;
            resolve(null);
          } else resolve(this.outcome(rec));
        },
        giveUpFirst ? maxWaitMs : remaining + 5,
      );
      rec.waiters.push(done);
    });
  }

  /** The interaction's response as the invoking user sees it now. */
  outcome(rec: InteractionRecord): InteractionOutcome | null {
    if (rec.responseType === null) return null;
    const out: InteractionOutcome = { type: rec.responseType };
    const original = rec.originalMessageId ? this.state.messages.get(rec.originalMessageId) : undefined;
    if (original) out.message = apiMessage(this.state, original);
    if (rec.choices) out.choices = rec.choices;
    if (rec.modal) out.modal = { custom_id: rec.modal.customId, title: rec.modal.title, components: rec.modal.components };
    return out;
  }

  // ---- POST /interactions/:id/:token/callback ----------------------------------------------

  callback(id: string, token: string, body: unknown, files: UploadedFile[], withResponse: boolean): Reply {
    const rec = this.byId.get(id);
    if (!rec || rec.token !== token) throw Errors.unknownInteraction();
    if (rec.responseType !== null) throw Errors.alreadyAcknowledged();
    if (this.isExpired(rec)) throw Errors.unknownInteraction();
    const b = (body ?? {}) as Record<string, unknown>;
    const type = b.type;
    const allowed = ALLOWED_CALLBACKS[rec.type] ?? [];
    const fromMessage = rec.sourceMessageId !== null;
    const ok = typeof type === 'number' && allowed.includes(type) && !((type === 6 || type === 7) && rec.type === InteractionType.ModalSubmit && !fromMessage);
    if (!ok) {
      const f = new FormErrors();
      f.add(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', `Interaction response type must be one of {${allowed.join(', ')}} for this interaction.`);
      throw ApiError.form(f);
    }
    const { state } = this;
    const channel = state.channels.get(rec.channelId);
    if (!channel) throw Errors.unknownChannel();
    const baseUrl = this.opts.baseUrl();
    switch (type) {
      case CallbackType.ChannelMessageWithSource: {
        const payload = validateOrThrow(b.data ?? {}, { prefix: ['data'], allowEphemeral: true });
        const m = createFromPayload(state, payload, { ...this.responseMessageOptions(rec, channel), files, prefix: ['data'] }, baseUrl);
        rec.originalMessageId = m.id;
        break;
      }
      case CallbackType.DeferredChannelMessageWithSource: {
        const payload = validateOrThrow(b.data ?? {}, { prefix: ['data'], allowEphemeral: true });
        const flags = (payload.flags ?? 0) & MessageFlag.EPHEMERAL;
        const m = createFromPayload(
          state,
          { flags },
          { ...this.responseMessageOptions(rec, channel), allowEmpty: true, extraFlags: MessageFlag.LOADING },
          baseUrl,
        );
        rec.originalMessageId = m.id;
        break;
      }
      case CallbackType.DeferredUpdateMessage: {
        rec.originalMessageId = rec.sourceMessageId;
        break;
      }
      case CallbackType.UpdateMessage: {
        const source = rec.sourceMessageId ? state.messages.get(rec.sourceMessageId) : undefined;
        if (!source) throw Errors.unknownMessage();
        const payload = validateOrThrow(b.data ?? {}, { prefix: ['data'] });
        editFromPayload(state, source, payload, files, baseUrl);
        rec.originalMessageId = source.id;
        break;
      }
      case CallbackType.AutocompleteResult: {
        const errors = new FormErrors();
        const choices = validateAutocompleteData(b.data, errors);
        if (!errors.empty) throw ApiError.form(errors);
        rec.choices = choices;
        break;
      }
      case CallbackType.Modal: {
        const errors = new FormErrors();
        const modal = validateModalData(b.data, errors);
        if (!errors.empty || !modal) throw ApiError.form(errors);
        rec.modal = modal;
        this.pendingModals.push({ interactionId: rec.id, userId: rec.userId, channelId: rec.channelId, sourceMessageId: rec.sourceMessageId, modal });
        break;
      }
      default:
        break;
    }
    rec.responseType = type as number;
    state.emit({ type: 'interaction.response', id: rec.id, responseType: rec.responseType });
    for (const w of rec.waiters.splice(0)) w();
    if (!withResponse) return noContent();
    return json(200, this.callbackResponse(rec));
  }

  /** The interaction callback response object (`?with_response=true`). */
  private callbackResponse(rec: InteractionRecord): Record<string, unknown> {
    const original = rec.originalMessageId ? this.state.messages.get(rec.originalMessageId) : undefined;
    const interaction: Record<string, unknown> = { id: rec.id, type: rec.type, activity_instance_id: null };
    const out: Record<string, unknown> = { interaction };
    const t = rec.responseType;
    if (original && (t === 4 || t === 5 || t === 7)) {
      interaction.response_message_id = original.id;
      interaction.response_message_loading = (original.flags & MessageFlag.LOADING) !== 0;
      interaction.response_message_ephemeral = (original.flags & MessageFlag.EPHEMERAL) !== 0;
      out.resource = { type: t, message: apiMessage(this.state, original) };
    }
    return out;
  }

  private interactionInfo(rec: InteractionRecord, originalResponseMessageId: string | null = null): MessageInteractionInfo {
    return {
      id: rec.id,
      type: rec.type,
      userId: rec.userId,
      name: rec.commandName,
      commandType: rec.commandType,
      interactedMessageId: rec.type === InteractionType.MessageComponent ? rec.sourceMessageId : null,
      originalResponseMessageId,
    };
  }

  /** Response messages: authored by the bot through the app's webhook, typed after what triggered them. */
  private responseMessageOptions(rec: InteractionRecord, channel: ChannelRecord) {
    const source = rec.sourceMessageId ? this.state.messages.get(rec.sourceMessageId) : undefined;
    let type: number = MessageKind.Default;
    let reference = null;
    if (rec.type === InteractionType.ApplicationCommand) type = rec.commandType === 1 ? MessageKind.ChatInputCommand : MessageKind.ContextMenuCommand;
    else if (source && source.visibleTo === null) {
      type = MessageKind.Reply;
      reference = { type: 0, message_id: source.id, channel_id: source.channelId, ...(source.guildId ? { guild_id: source.guildId } : {}) };
    }
    return {
      channel,
      authorId: this.state.application.botUserId,
      allowEphemeral: true,
      ephemeralFor: rec.userId,
      type,
      webhookId: this.state.application.id,
      applicationId: this.state.application.id,
      interaction: this.interactionInfo(rec),
      reference,
    };
  }

  // ---- /webhooks/:app/:token ... -------------------------------------------------------------

  private byWebhook(applicationId: string, token: string): InteractionRecord {
    if (applicationId !== this.state.application.id) throw Errors.unknownWebhook();
    const rec = this.byToken.get(token);
    if (!rec) throw Errors.invalidWebhookToken();
    if (this.state.now().getTime() - rec.createdAtEmu > TOKEN_LIFETIME_MS) throw Errors.invalidWebhookToken();
    // Before the initial response there is nothing behind the webhook yet; autocomplete never has one.
    if (rec.responseType === null || rec.type === InteractionType.Autocomplete) throw Errors.unknownWebhook();
    return rec;
  }

  private webhookMessage(rec: InteractionRecord, messageId: string): MessageRecord {
    const id = messageId === '@original' ? rec.originalMessageId : messageId;
    if (!id || (id !== rec.originalMessageId && !rec.followupIds.includes(id))) throw Errors.unknownMessage();
    const m = this.state.messages.get(id);
    if (!m) throw Errors.unknownMessage();
    return m;
  }

  getMessage(applicationId: string, token: string, messageId: string): Reply {
    const rec = this.byWebhook(applicationId, token);
    return json(200, apiMessage(this.state, this.webhookMessage(rec, messageId)));
  }

  editMessage(applicationId: string, token: string, messageId: string, body: unknown, files: UploadedFile[]): Reply {
    const rec = this.byWebhook(applicationId, token);
    const m = this.webhookMessage(rec, messageId);
    const payload = validateOrThrow(body ?? {}, {});
    const updated = editFromPayload(this.state, m, payload, files, this.opts.baseUrl(), { clearLoading: true });
    return json(200, apiMessage(this.state, updated));
  }

  deleteMessage(applicationId: string, token: string, messageId: string): Reply {
    const rec = this.byWebhook(applicationId, token);
    const m = this.webhookMessage(rec, messageId);
    this.state.deleteMessage(m);
    return noContent();
  }

  followup(applicationId: string, token: string, body: unknown, files: UploadedFile[], wait: boolean): Reply {
    const rec = this.byWebhook(applicationId, token);
    const { state } = this;
    const channel = state.channels.get(rec.channelId);
    if (!channel) throw Errors.unknownChannel();
    const payload = validateOrThrow(body ?? {}, { allowEphemeral: true });
    const original = rec.originalMessageId ? state.messages.get(rec.originalMessageId) : undefined;
    const baseUrl = this.opts.baseUrl();
    if (rec.responseType === CallbackType.DeferredChannelMessageWithSource && original && original.flags & MessageFlag.LOADING) {
      // Discord: the first followup after a deferred reply edits the "thinking…" message.
      const edited = editFromPayload(state, original, payload, files, baseUrl, { clearLoading: true });
      return wait ? json(200, apiMessage(state, edited)) : noContent();
    }
    const reference =
      original && original.visibleTo === null
        ? { type: 0, message_id: original.id, channel_id: original.channelId, ...(original.guildId ? { guild_id: original.guildId } : {}) }
        : null;
    const m = createFromPayload(
      state,
      payload,
      {
        channel,
        authorId: state.application.botUserId,
        files,
        allowEphemeral: true,
        ephemeralFor: rec.userId,
        type: reference ? MessageKind.Reply : MessageKind.Default,
        webhookId: state.application.id,
        applicationId: state.application.id,
        interaction: this.interactionInfo(rec, original?.id ?? null),
        reference,
      },
      baseUrl,
    );
    rec.followupIds.push(m.id);
    return wait ? json(200, apiMessage(state, m)) : noContent();
  }

  /** A test API view of one interaction. */
  view(rec: InteractionRecord): Record<string, unknown> {
    const msg = (id: string) => {
      const m = this.state.messages.get(id);
      return m ? apiMessage(this.state, m) : null;
    };
    return {
      id: rec.id,
      type: rec.type,
      user_id: rec.userId,
      channel_id: rec.channelId,
      guild_id: rec.guildId,
      command: rec.commandName,
      custom_id: rec.customId,
      acknowledged: rec.responseType !== null,
      expired: this.isExpired(rec),
      response_type: rec.responseType,
      original: rec.originalMessageId ? msg(rec.originalMessageId) : null,
      followups: rec.followupIds.map(msg).filter((m) => m !== null),
      choices: rec.choices,
      modal: rec.modal ? { custom_id: rec.modal.customId, title: rec.modal.title, components: rec.modal.components } : null,
    };
  }
}
