/**
 * Turns the test API's friendly command input (`{ subcommand: "join", opponent: "bob" }`) into the
 * `data` of an APPLICATION_COMMAND or AUTOCOMPLETE interaction, checked against the registered
 * command schema the way the Discord client checks what a user types (types, choices, ranges,
 * required options), with `data.resolved` filled for users, members, roles and channels.
 */
import type { APIApplicationCommandOption } from 'discord-api-types/v10';
import { OptionType, usableInDm } from './commands.ts';
import { Permission, hasPermission } from './permissions.ts';
import { apiChannel, apiMemberFields, apiRole, apiUser } from './serialize.ts';
import { ChannelKind, type ChannelRecord, type CommandRecord, type EmulatorState, type UserRecord } from './state.ts';

/** A test API input error: HTTP 400 with a message meant for the person writing the test. */
export class TestInputError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'TestInputError';
  }
}

export interface CommandPath {
  name: string;
  subcommandGroup?: string | undefined;
  subcommand?: string | undefined;
  values: Record<string, unknown>;
}

/**
 * Accepts `name: "knucklebones join"` (or "/knucklebones join") and options either flat
 * (`{ subcommand, subcommandGroup, ...values }`) or structured (`{ subcommand, options: {...} }`).
 */
export function parseCommandInput(name: string, options: Record<string, unknown> | undefined): CommandPath {
  const words = name.trim().replace(/^\//, '').split(/\s+/).filter(Boolean);
  const opts = { ...(options ?? {}) };
  let values: Record<string, unknown>;
  const nested = opts.options;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    values = { ...(nested as Record<string, unknown>) };
  } else {
    values = { ...opts };
    delete values.subcommand;
    delete values.subcommandGroup;
    delete values.subcommand_group;
    delete values.group;
  }
  const pick = (...keys: string[]) => {
    for (const k of keys) if (typeof opts[k] === 'string') return opts[k] as string;
    return undefined;
  };
  let subcommandGroup = pick('subcommandGroup', 'subcommand_group', 'group');
  let subcommand = pick('subcommand');
  if (words.length === 3) {
    subcommandGroup ??= words[1];
    subcommand ??= words[2];
  } else if (words.length === 2) subcommand ??= words[1];
  else if (words.length > 3 || words.length === 0) throw new TestInputError(`"${name}" is not a command name`);
  return { name: words[0] as string, subcommandGroup, subcommand, values };
}

/** Finds the command a user could run in a channel, or explains why not. */
export function findUsableCommand(state: EmulatorState, name: string, user: UserRecord, channel: ChannelRecord): CommandRecord {
  const guildId = channel.guildId;
  const command = state.findCommand(name, guildId);
  if (!command) {
    const known = [...new Set([...state.commandsFor(null), ...(guildId ? state.commandsFor(guildId) : [])].map((c) => `/${c.name}`))];
    throw new TestInputError(
      `no slash command /${name} is registered${guildId ? ' for this guild or globally' : ' globally (DMs only see global commands)'}; registered: ${known.join(', ') || 'none'}`,
    );
  }
  if (!guildId) {
    if (!usableInDm(command)) throw new TestInputError(`/${name} is not available in DMs (dm_permission/contexts)`);
    return command;
  }
  const perms = state.permissionsIn(channel, user.id);
  if (!hasPermission(perms, Permission.USE_APPLICATION_COMMANDS)) throw new TestInputError(`${user.username} cannot use application commands in #${channel.name}`, 403);
  if (command.defaultMemberPermissions !== null) {
    const required = BigInt(command.defaultMemberPermissions);
    const guildPerms = state.guildPermissions(guildId, user.id);
    const admin = (guildPerms & Permission.ADMINISTRATOR) !== 0n || state.guilds.get(guildId)?.ownerId === user.id;
    if (!admin && (required === 0n || !hasPermission(guildPerms, required))) {
      throw new TestInputError(`${user.username} lacks the permissions /${name} requires (default_member_permissions ${command.defaultMemberPermissions})`, 403);
    }
  }
  return command;
}

interface Resolved {
  users?: Record<string, unknown>;
  members?: Record<string, unknown>;
  roles?: Record<string, unknown>;
  channels?: Record<string, unknown>;
}

interface OptionValue {
  type: number;
  name: string;
  value?: string | number | boolean;
  options?: OptionValue[];
  focused?: boolean;
}

export interface BuiltCommandData {
  data: Record<string, unknown>;
  /** "knucklebones join": the name Discord shows as "used /knucklebones join". */
  displayName: string;
}

const typeNames: Record<number, string> = {
  1: 'SUB_COMMAND',
  2: 'SUB_COMMAND_GROUP',
  3: 'STRING',
  4: 'INTEGER',
  5: 'BOOLEAN',
  6: 'USER',
  7: 'CHANNEL',
  8: 'ROLE',
  9: 'MENTIONABLE',
  10: 'NUMBER',
  11: 'ATTACHMENT',
};

export function buildCommandData(
  state: EmulatorState,
  command: CommandRecord,
  channel: ChannelRecord,
  user: UserRecord,
  input: CommandPath,
  focused?: string,
): BuiltCommandData {
  const top = command.options;
  const hasSubs = top.some((o) => o.type === OptionType.Subcommand || o.type === OptionType.SubcommandGroup);
  let schema: APIApplicationCommandOption[] = top;
  const path = [command.name];
  let group: APIApplicationCommandOption | undefined;
  let sub: APIApplicationCommandOption | undefined;
  if (hasSubs) {
    let candidates = top;
    if (input.subcommandGroup) {
      group = top.find((o) => o.type === OptionType.SubcommandGroup && o.name === input.subcommandGroup);
      if (!group) throw new TestInputError(`/${command.name} has no subcommand group "${input.subcommandGroup}"; groups: ${names(top, OptionType.SubcommandGroup)}`);
      candidates = ('options' in group && group.options ? group.options : []) as APIApplicationCommandOption[];
      path.push(group.name);
    }
    if (!input.subcommand) throw new TestInputError(`/${path.join(' ')} needs a subcommand: ${names(candidates, OptionType.Subcommand) || names(candidates, OptionType.SubcommandGroup)}`);
    sub = candidates.find((o) => o.type === OptionType.Subcommand && o.name === input.subcommand);
    if (!sub) {
      const isGroup = candidates.some((o) => o.type === OptionType.SubcommandGroup && o.name === input.subcommand);
      throw new TestInputError(
        isGroup
          ? `"${input.subcommand}" is a subcommand group of /${command.name}; pass subcommandGroup: "${input.subcommand}" and a subcommand`
          : `/${path.join(' ')} has no subcommand "${input.subcommand}"; subcommands: ${names(candidates, OptionType.Subcommand)}`,
      );
    }
    path.push(sub.name);
    schema = ('options' in sub && sub.options ? sub.options : []) as APIApplicationCommandOption[];
  } else if (input.subcommand || input.subcommandGroup) {
    throw new TestInputError(`/${command.name} has no subcommands`);
  }

  const display = `/${path.join(' ')}`;
  for (const key of Object.keys(input.values)) {
    if (!schema.some((o) => o.name === key)) {
      throw new TestInputError(`${display} has no option "${key}"; options: ${schema.map((o) => o.name).join(', ') || 'none'}`);
    }
  }
  if (focused !== undefined) {
    const f = schema.find((o) => o.name === focused);
    if (!f) throw new TestInputError(`${display} has no option "${focused}" to autocomplete`);
    if (!('autocomplete' in f && f.autocomplete)) throw new TestInputError(`option "${focused}" of ${display} does not have autocomplete enabled`);
  }

  const resolved: Resolved = {};
  const values: OptionValue[] = [];
  for (const opt of schema) {
    const raw = input.values[opt.name];
    if (focused !== undefined && opt.name === focused) {
      values.push({ type: opt.type, name: opt.name, value: raw === undefined || raw === null ? '' : String(raw), focused: true });
      continue;
    }
    if (raw === undefined || raw === null) {
      if (focused === undefined && 'required' in opt && opt.required) throw new TestInputError(`${display} requires option "${opt.name}" (${typeNames[opt.type]})`);
      continue;
    }
    try {
      values.push({ type: opt.type, name: opt.name, value: convert(state, channel, user, opt, raw, resolved, display) });
    } catch (err) {
      if (focused === undefined) throw err;
      values.push({ type: opt.type, name: opt.name, value: String(raw) });
    }
  }

  let options: OptionValue[] = values;
  if (sub) options = [{ type: OptionType.Subcommand, name: sub.name, options: values }];
  if (group) options = [{ type: OptionType.SubcommandGroup, name: group.name, options }];
  const data: Record<string, unknown> = { id: command.id, name: command.name, type: command.type };
  if (options.length) data.options = options;
  if (focused === undefined && Object.keys(resolved).length) data.resolved = resolved;
  if (command.guildId) data.guild_id = command.guildId;
  return { data, displayName: path.join(' ') };
}

function names(options: readonly APIApplicationCommandOption[], type: number): string {
  return options
    .filter((o) => o.type === type)
    .map((o) => o.name)
    .join(', ');
}

function checkChoices(opt: APIApplicationCommandOption, v: string | number, display: string): string | number {
  const choices = 'choices' in opt && opt.choices ? (opt.choices as Array<{ name: string; value: string | number }>) : undefined;
  if (!choices?.length) return v;
  const byValue = choices.find((c) => c.value === v || String(c.value) === String(v));
  if (byValue) return byValue.value;
  const byName = choices.find((c) => c.name.toLowerCase() === String(v).toLowerCase());
  if (byName) return byName.value;
  throw new TestInputError(`option "${opt.name}" of ${display} must be one of ${choices.map((c) => JSON.stringify(c.value)).join(', ')} (got ${JSON.stringify(v)})`);
}

function convert(state: EmulatorState, channel: ChannelRecord, actor: UserRecord, opt: APIApplicationCommandOption, raw: unknown, resolved: Resolved, display: string): string | number | boolean {
  const bad = (what: string) => new TestInputError(`option "${opt.name}" of ${display} must be ${what} (got ${JSON.stringify(raw)})`);
  const o = opt as APIApplicationCommandOption & { min_value?: number; max_value?: number; min_length?: number; max_length?: number; channel_types?: number[] };
  switch (opt.type) {
    case OptionType.String: {
      if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw bad('a string');
      const s = String(raw);
      const checked = checkChoices(opt, s, display);
      if (typeof checked === 'string') {
        if (o.min_length !== undefined && checked.length < o.min_length) throw bad(`at least ${o.min_length} characters`);
        if (checked.length > (o.max_length ?? 6000)) throw bad(`at most ${o.max_length ?? 6000} characters`);
      }
      return checked;
    }
    case OptionType.Integer:
    case OptionType.Number: {
      const isInt = opt.type === OptionType.Integer;
      let n: number;
      if (typeof raw === 'number') n = raw;
      else if (typeof raw === 'string' && raw.trim() !== '' && !Number.isNaN(Number(raw))) n = Number(raw);
      else {
        // a choice name ("Column 2")
        const viaChoice = checkChoices(opt, String(raw), display);
        if (typeof viaChoice !== 'number') throw bad(isInt ? 'an integer' : 'a number');
        n = viaChoice;
      }
      if (!Number.isFinite(n) || (isInt && !Number.isInteger(n))) throw bad(isInt ? 'an integer' : 'a number');
      if (Math.abs(n) > 2 ** 53) throw bad('between -2^53 and 2^53');
      const checked = checkChoices(opt, n, display);
      if (typeof checked !== 'number') throw bad('a number');
      if (o.min_value !== undefined && checked < o.min_value) throw bad(`>= ${o.min_value}`);
      if (o.max_value !== undefined && checked > o.max_value) throw bad(`<= ${o.max_value}`);
      return checked;
    }
    case OptionType.Boolean: {
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true' || raw === 'yes') return true;
      if (raw === 'false' || raw === 'no') return false;
      throw bad('a boolean');
    }
    case OptionType.User:
      return resolveUserOption(state, channel, String(raw), resolved, bad);
    case OptionType.Channel: {
      const target = typeof raw === 'string' ? state.resolveChannel(raw) : undefined;
      if (!target || target.type === ChannelKind.DM || target.guildId !== channel.guildId) throw bad('a channel of this guild (name or id)');
      if (o.channel_types?.length && !o.channel_types.includes(target.type)) throw bad(`a channel of type ${o.channel_types.join('/')}`);
      addChannel(state, actor, target, resolved);
      return target.id;
    }
    case OptionType.Role: {
      const guild = channel.guildId ? state.guilds.get(channel.guildId) : undefined;
      const role = guild && typeof raw === 'string' ? state.resolveRole(guild, raw) : undefined;
      if (!role) throw bad('a role of this guild (name or id)');
      (resolved.roles ??= {})[role.id] = apiRole(role);
      return role.id;
    }
    case OptionType.Mentionable: {
      const s = String(raw);
      if (state.resolveUser(s)) return resolveUserOption(state, channel, s, resolved, bad);
      const guild = channel.guildId ? state.guilds.get(channel.guildId) : undefined;
      const role = guild ? state.resolveRole(guild, s) : undefined;
      if (!role) throw bad('a user or a role');
      (resolved.roles ??= {})[role.id] = apiRole(role);
      return role.id;
    }
    case OptionType.Attachment:
      throw new TestInputError(`option "${opt.name}" of ${display} is an attachment; the emulator does not support attachment options`);
    default:
      throw bad('a supported option type');
  }
}

function resolveUserOption(state: EmulatorState, channel: ChannelRecord, ref: string, resolved: Resolved, bad: (what: string) => Error): string {
  const user = state.resolveUser(ref);
  if (!user) throw bad('a user (alias like "bob", username or id)');
  (resolved.users ??= {})[user.id] = apiUser(user);
  const member = channel.guildId ? state.member(channel.guildId, user.id) : undefined;
  if (member) {
    (resolved.members ??= {})[user.id] = { ...apiMemberFields(member), permissions: state.computedPermissionsIn(channel, user.id).toString() };
  }
  return user.id;
}

/** Resolved channels carry the invoking user's permissions in them. */
function addChannel(state: EmulatorState, actor: UserRecord, target: ChannelRecord, resolved: Resolved): void {
  (resolved.channels ??= {})[target.id] = { ...apiChannel(state, target), permissions: state.computedPermissionsIn(target, actor.id).toString() };
}
