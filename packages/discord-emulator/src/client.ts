/**
 * A typed client for the emulator's HTTP test API (/_test). Tests and scripts use it to act as
 * users and inspect what they see; it works against an in-process or a separately started emulator.
 *
 *   const emu = new EmulatorClient('http://127.0.0.1:8787');
 *   const { response } = await emu.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
 */
import type { RouteStats } from './rest-stats.ts';
import type { APIMessage, APIUser } from 'discord-api-types/v10';
import type { QueuedFault } from './faults.ts';
import type { SessionInfo } from './gateway.ts';
import type { InteractionOutcome } from './interactions.ts';
import type { Rejection } from './state.ts';
import type {
  AutocompleteRequest,
  CommandRequest,
  ComponentRequest,
  DisconnectRequest,
  FaultRequest,
  InteractionResult,
  ModalRequest,
  UserMessageRequest,
  SetOverwriteRequest,
  ClearOverwriteRequest,
  SetRolePermissionsRequest,
  DeleteChannelRequest,
  ChannelPermissionsView,
  RolePermissionsView,
} from './test-api.ts';
import type { PermissionName } from './server.ts';
import type { Choice } from './validate.ts';

export type { AutocompleteRequest, CommandRequest, ComponentRequest, DisconnectRequest, FaultRequest, InteractionResult, ModalRequest, UserMessageRequest };
export type { InteractionOutcome, QueuedFault, Rejection, SessionInfo, Choice };
export type { SetOverwriteRequest, ClearOverwriteRequest, SetRolePermissionsRequest, DeleteChannelRequest, ChannelPermissionsView, RolePermissionsView, PermissionName };

export interface ChannelSummary {
  id: string;
  type: number;
  name: string | null;
  guild_id: string | null;
  recipient_id: string | null;
}

export interface ChannelMessages {
  channel: ChannelSummary | null;
  /** Oldest first, as the `as` user sees them (their own ephemeral messages included). */
  messages: APIMessage[];
}

export interface UserDms extends ChannelMessages {
  open: boolean;
}

export interface SnapshotUser extends APIUser {
  alias: string | null;
  dms_open: boolean;
  roles: string[];
  permissions: string;
}

export interface EmulatorSnapshot {
  application: { id: string; name: string };
  bot: APIUser;
  guild: { id: string; name: string; owner_id: string; roles: Array<{ id: string; name: string; permissions: string }> };
  guilds: Array<{ id: string; name: string; owner_id: string; member_ids: string[]; channels: Array<{ id: string; name: string }> }>;
  channels: Array<ChannelSummary & { topic: string | null }>;
  dm_channels: ChannelSummary[];
  users: SnapshotUser[];
  commands: Array<Record<string, unknown> & { id: string; name: string; guild_id?: string }>;
  rejections: Rejection[];
  gateway: { sessions: SessionInfo[] };
  clock: { now: string; offsetMs: number };
  interaction_timeout_ms: number;
}

export interface InteractionView {
  id: string;
  type: number;
  user_id: string;
  channel_id: string;
  guild_id: string | null;
  command: string | null;
  custom_id: string | null;
  acknowledged: boolean;
  expired: boolean;
  response_type: number | null;
  original: APIMessage | null;
  followups: APIMessage[];
  choices: Choice[] | null;
  modal: { custom_id: string; title: string; components: unknown[] } | null;
}

export class EmulatorClientError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'EmulatorClientError';
  }
}

export class EmulatorClient {
  readonly url: string;

  constructor(url: string) {
    this.url = url.replace(/\/+$/, '');
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/_test${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const data: unknown = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const msg = data && typeof data === 'object' && 'error' in data ? String((data as { error: unknown }).error) : text;
      throw new EmulatorClientError(res.status, data, `${method} /_test${path} failed (${res.status}): ${msg}`);
    }
    return data as T;
  }

  state(): Promise<EmulatorSnapshot> {
    return this.call('GET', '/state');
  }

  /** Runs a slash command as a user and waits for the bot's initial response (or the timeout). */
  command(req: CommandRequest): Promise<InteractionResult> {
    return this.call('POST', '/commands', req);
  }

  autocomplete(req: AutocompleteRequest): Promise<InteractionResult & { choices: Choice[] | null }> {
    return this.call('POST', '/autocomplete', req);
  }

  /** Clicks a button, or picks `values` in a select menu, of a message. */
  component(req: ComponentRequest): Promise<InteractionResult> {
    return this.call('POST', '/components', req);
  }

  click(user: string, message: string, customId: string): Promise<InteractionResult> {
    return this.component({ user, message, customId });
  }

  select(user: string, message: string, customId: string, values: string[]): Promise<InteractionResult> {
    return this.component({ user, message, customId, values });
  }

  /** Dispatches an interaction with unvalidated `data` (fuzzing; see /_test/raw-interactions). */
  rawInteraction(req: { user: string; channel: string; type: 2 | 3 | 4; data: Record<string, unknown>; message?: string; wait_ms?: number }): Promise<InteractionResult> {
    return this.call('POST', '/raw-interactions', req);
  }

  submitModal(req: ModalRequest): Promise<InteractionResult> {
    return this.call('POST', '/modals', req);
  }

  /** A user posts a plain message. */
  sendMessage(req: UserMessageRequest): Promise<{ message: APIMessage }> {
    return this.call('POST', '/messages', req);
  }

  /** Messages of a channel (alias, id or "dm" with `as`) as `as` sees them, oldest first. */
  messages(channel: string, as?: string, limit?: number): Promise<ChannelMessages> {
    const q = new URLSearchParams();
    if (as) q.set('as', as);
    if (limit) q.set('limit', String(limit));
    const qs = q.toString();
    return this.call('GET', `/channels/${encodeURIComponent(channel)}/messages${qs ? `?${qs}` : ''}`);
  }

  dms(user: string): Promise<UserDms> {
    return this.call('GET', `/users/${encodeURIComponent(user)}/dms`);
  }

  setDmsOpen(user: string, open: boolean): Promise<{ user: string; open: boolean }> {
    return this.call('POST', `/users/${encodeURIComponent(user)}/dms`, { open });
  }

  interaction(id: string): Promise<InteractionView> {
    return this.call('GET', `/interactions/${encodeURIComponent(id)}`);
  }

  clock(): Promise<{ now: string; offsetMs: number }> {
    return this.call('GET', '/clock');
  }

  /** Advances the emulator clock (and waits for the bot's clock listeners). */
  advanceClock(ms: number): Promise<{ now: string; offsetMs: number }> {
    return this.call('POST', '/clock/advance', { ms });
  }

  addFault(fault: FaultRequest): Promise<{ fault: QueuedFault }> {
    return this.call('POST', '/faults', fault);
  }

  faults(): Promise<{ faults: QueuedFault[] }> {
    return this.call('GET', '/faults');
  }

  clearFaults(): Promise<{ cleared: number }> {
    return this.call('DELETE', '/faults');
  }

  gateway(): Promise<{ sessions: SessionInfo[] }> {
    return this.call('GET', '/gateway');
  }

  disconnectGateway(opts: DisconnectRequest = {}): Promise<{ disconnected: number }> {
    return this.call('POST', '/gateway/disconnect', opts);
  }

  rejections(): Promise<{ rejections: Rejection[] }> {
    return this.call('GET', '/rejections');
  }

  clearRejections(): Promise<{ cleared: number }> {
    return this.call('DELETE', '/rejections');
  }

  /** The bot's REST requests per route and how they were answered; `rateLimited` is the limiter's 429s (null when limits are off). */
  restStats(): Promise<{ since: string; routes: Record<string, RouteStats>; total: RouteStats; rateLimited: { global: number; route: number } | null }> {
    return this.call('GET', '/rest-stats');
  }

  resetRestStats(): Promise<{ ok: true }> {
    return this.call('DELETE', '/rest-stats');
  }

  /** Every message of one author ("bot" for the bot), compact. */
  messagesBy(author: string): Promise<{ messages: Array<{ id: string; channelId: string; dmRecipientId: string | null; nonce: string | number | null; content: string; edited: boolean }> }> {
    return this.call('GET', `/messages?author=${encodeURIComponent(author)}`);
  }

  /**
   * Sets one role's or member's permission overwrite in a channel (name in the home guild, or id),
   * replacing the one it had: `role` is a role name, '@everyone', or the bot's name for its managed
   * role; `user` an alias or 'bot'. The bot receives CHANNEL_UPDATE. Returns the bot's permissions there.
   */
  setOverwrite(req: SetOverwriteRequest): Promise<ChannelPermissionsView> {
    const { channel, ...rest } = req;
    return this.call('PUT', `/channels/${encodeURIComponent(channel)}/overwrites`, rest);
  }

  /** Removes one role's or member's overwrite from a channel (CHANNEL_UPDATE). */
  clearOverwrite(req: ClearOverwriteRequest): Promise<ChannelPermissionsView> {
    const q = new URLSearchParams();
    if (req.role !== undefined) q.set('role', req.role);
    if (req.user !== undefined) q.set('user', req.user);
    return this.call('DELETE', `/channels/${encodeURIComponent(req.channel)}/overwrites?${q.toString()}`);
  }

  /** Sets a role's permissions in the home guild (GUILD_ROLE_UPDATE): '@everyone', 'Moderator', the bot's name for its managed role. */
  setRolePermissions(req: SetRolePermissionsRequest): Promise<RolePermissionsView> {
    return this.call('PUT', `/roles/${encodeURIComponent(req.role)}/permissions`, { permissions: req.permissions });
  }

  /** Deletes a channel, its threads and messages (CHANNEL_DELETE); the bot then meets 10003 Unknown Channel. */
  deleteChannel(req: DeleteChannelRequest): Promise<{ deleted: string }> {
    return this.call('DELETE', `/channels/${encodeURIComponent(req.channel)}`);
  }

  /** A channel's overwrites and the effective permissions there of `user` (default: the bot). */
  channelPermissions(channel: string, user?: string): Promise<ChannelPermissionsView> {
    return this.call('GET', `/channels/${encodeURIComponent(channel)}/permissions${user ? `?user=${encodeURIComponent(user)}` : ''}`);
  }

  /** Polls `probe` until it returns a truthy value (e.g. a deferred reply was edited). */
  async waitFor<T>(probe: () => Promise<T | null | undefined | false>, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
    const deadline = Date.now() + (opts.timeoutMs ?? 5000);
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}`);
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
    }
  }
}
