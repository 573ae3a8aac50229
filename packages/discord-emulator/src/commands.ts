/**
 * Application command registration: validation with Discord's rules, storage with Discord's
 * id/version semantics (a bulk overwrite keeps the id of a command whose name is unchanged) and the
 * API representation.
 */
import type { APIApplicationCommandOption } from 'discord-api-types/v10';
import { ApiError, FormErrors, type FieldPath } from './errors.ts';
import type { CommandInput, CommandRecord, EmulatorState } from './state.ts';

export type { CommandInput } from './state.ts';

export const CommandType = { ChatInput: 1, User: 2, Message: 3, PrimaryEntryPoint: 4 } as const;

export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

const NAME_RE = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const MAX_OPTIONS = 25;
const MAX_CHOICES = 25;
const MAX_COMMAND_SIZE = 4000;
const MAX_CHAT_INPUT_COMMANDS = 100;
const MAX_CONTEXT_MENU_COMMANDS = 15;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function validName(name: unknown): name is string {
  return typeof name === 'string' && NAME_RE.test(name) && name === name.toLowerCase();
}

function checkLength(errors: FormErrors, path: FieldPath, v: unknown, min: number, max: number): void {
  if (typeof v !== 'string') {
    errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return;
  }
  if (v.length < min || v.length > max) errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
}

function validateOptions(errors: FormErrors, path: FieldPath, raw: unknown, level: 'command' | 'group' | 'subcommand'): number {
  let size = 0;
  if (raw === undefined || raw === null) return 0;
  if (!Array.isArray(raw)) {
    errors.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return 0;
  }
  if (raw.length > MAX_OPTIONS) errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_OPTIONS} or fewer in length.`);
  const names = new Set<string>();
  let sawOptional = false;
  let subcommands = 0;
  let plain = 0;
  raw.forEach((o, i) => {
    const p = [...path, i];
    if (!isObj(o)) {
      errors.add(p, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      return;
    }
    const type = o.type;
    if (typeof type !== 'number' || !Number.isInteger(type) || type < 1 || type > 11) {
      errors.add([...p, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.');
      return;
    }
    if (!validName(o.name)) errors.add([...p, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    else if (names.has(o.name)) errors.add([...p, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS', 'Option name already exists');
    else names.add(o.name);
    checkLength(errors, [...p, 'description'], o.description, 1, 100);
    size += (typeof o.name === 'string' ? o.name.length : 0) + (typeof o.description === 'string' ? o.description.length : 0);

    const isSub = type === OptionType.Subcommand || type === OptionType.SubcommandGroup;
    if (isSub) subcommands++;
    else plain++;
    if (level === 'group' && type !== OptionType.Subcommand) {
      errors.add([...p, 'type'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Subcommand groups may only contain subcommands');
    }
    if (level === 'subcommand' && isSub) {
      errors.add([...p, 'type'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Subcommands cannot contain subcommands or groups');
    }
    if (isSub) {
      if (o.required !== undefined && o.required !== false) errors.add([...p, 'required'], 'APPLICATION_COMMAND_OPTION_REQUIRED_INVALID', 'Subcommands cannot be required');
      size += validateOptions(errors, [...p, 'options'], o.options, type === OptionType.SubcommandGroup ? 'group' : 'subcommand');
      return;
    }
    if (o.options !== undefined) errors.add([...p, 'options'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Only subcommands and groups have options');
    const isRequired = o.required === true;
    if (isRequired && sawOptional) {
      errors.add(path, 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options');
    }
    if (!isRequired) sawOptional = true;

    if (o.choices !== undefined && o.choices !== null) {
      if (type !== OptionType.String && type !== OptionType.Integer && type !== OptionType.Number) {
        errors.add([...p, 'choices'], 'APPLICATION_COMMAND_OPTION_CHOICES_INVALID', 'Only string, integer and number options may have choices');
      } else if (!Array.isArray(o.choices)) errors.add([...p, 'choices'], 'BASE_TYPE_ARRAY', 'Must be an array.');
      else {
        if (o.choices.length > MAX_CHOICES) errors.add([...p, 'choices'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CHOICES} or fewer in length.`);
        if (o.autocomplete === true && o.choices.length > 0) {
          errors.add([...p, 'autocomplete'], 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES', 'Autocomplete cannot be enabled with choices');
        }
        o.choices.forEach((ch, k) => {
          const cp = [...p, 'choices', k];
          if (!isObj(ch)) {
            errors.add(cp, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
            return;
          }
          checkLength(errors, [...cp, 'name'], ch.name, 1, 100);
          size += typeof ch.name === 'string' ? ch.name.length : 0;
          const v = ch.value;
          if (type === OptionType.String) {
            if (typeof v !== 'string') errors.add([...cp, 'value'], 'BASE_TYPE_STRING', 'Must be a string.');
            else {
              if (v.length < 1 || v.length > 100) errors.add([...cp, 'value'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
              size += v.length;
            }
          } else if (type === OptionType.Integer && !(typeof v === 'number' && Number.isInteger(v))) {
            errors.add([...cp, 'value'], 'NUMBER_TYPE_COERCE', `Value "${String(v)}" is not int.`);
          } else if (type === OptionType.Number && !(typeof v === 'number' && Number.isFinite(v))) {
            errors.add([...cp, 'value'], 'NUMBER_TYPE_COERCE', `Value "${String(v)}" is not a valid number.`);
          }
        });
      }
    }
    if (o.autocomplete === true && type !== OptionType.String && type !== OptionType.Integer && type !== OptionType.Number) {
      errors.add([...p, 'autocomplete'], 'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID', 'Only string, integer and number options may autocomplete');
    }
    if (o.min_value !== undefined || o.max_value !== undefined) {
      if (type !== OptionType.Integer && type !== OptionType.Number) {
        errors.add([...p, 'min_value'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Only integer and number options have min_value/max_value');
      } else if (typeof o.min_value === 'number' && typeof o.max_value === 'number' && o.min_value > o.max_value) {
        errors.add([...p, 'min_value'], 'APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID', 'min_value must be less than or equal to max_value');
      }
    }
    if (o.min_length !== undefined || o.max_length !== undefined) {
      if (type !== OptionType.String) errors.add([...p, 'min_length'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Only string options have min_length/max_length');
      for (const key of ['min_length', 'max_length'] as const) {
        const v = o[key];
        if (v === undefined) continue;
        const lo = key === 'min_length' ? 0 : 1;
        if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > 6000) {
          errors.add([...p, key], 'NUMBER_TYPE_MAX', `int value should be between ${lo} and 6000.`);
        }
      }
    }
  });
  if (subcommands > 0 && plain > 0) {
    errors.add(path, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Options of type SUB_COMMAND or SUB_COMMAND_GROUP cannot be mixed with other option types');
  }
  return size;
}

/** Validates one command body; errors go under `prefix` (the array index for bulk overwrites). */
export function validateCommand(body: unknown, errors: FormErrors, prefix: FieldPath = []): CommandInput | undefined {
  if (!isObj(body)) {
    errors.add(prefix, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return undefined;
  }
  const before = errors.flatten().length;
  const type = body.type === undefined || body.type === null ? CommandType.ChatInput : body.type;
  if (type !== 1 && type !== 2 && type !== 3 && type !== 4) {
    errors.add([...prefix, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4}.');
    return undefined;
  }
  let size = 0;
  if (type === CommandType.ChatInput || type === CommandType.PrimaryEntryPoint) {
    if (!validName(body.name)) errors.add([...prefix, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    checkLength(errors, [...prefix, 'description'], body.description, 1, 100);
    size += validateOptions(errors, [...prefix, 'options'], body.options, 'command');
  } else {
    checkLength(errors, [...prefix, 'name'], body.name, 1, 32);
    if (body.description !== undefined && body.description !== '' && body.description !== null) {
      errors.add([...prefix, 'description'], 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION', 'Context menu commands cannot have a description');
    }
    if (Array.isArray(body.options) && body.options.length) {
      errors.add([...prefix, 'options'], 'APPLICATION_COMMAND_CONTEXT_MENU_OPTIONS', 'Context menu commands cannot have options');
    }
  }
  size += (typeof body.name === 'string' ? body.name.length : 0) + (typeof body.description === 'string' ? body.description.length : 0);
  if (size > MAX_COMMAND_SIZE) errors.add(prefix, 'APPLICATION_COMMAND_TOO_LARGE', `Command exceeds maximum size (${MAX_COMMAND_SIZE})`);

  const dmp = body.default_member_permissions;
  if (dmp !== undefined && dmp !== null && !(typeof dmp === 'string' && /^\d+$/.test(dmp)) && !(typeof dmp === 'number' && Number.isInteger(dmp))) {
    errors.add([...prefix, 'default_member_permissions'], 'NUMBER_TYPE_COERCE', `Value "${String(dmp)}" is not int.`);
  }
  const contexts = body.contexts;
  if (contexts !== undefined && contexts !== null && !(Array.isArray(contexts) && contexts.every((x) => x === 0 || x === 1 || x === 2))) {
    errors.add([...prefix, 'contexts'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1, 2}.');
  }
  const integration = body.integration_types;
  if (integration !== undefined && integration !== null && !(Array.isArray(integration) && integration.every((x) => x === 0 || x === 1))) {
    errors.add([...prefix, 'integration_types'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1}.');
  }
  if (errors.flatten().length > before) return undefined;
  return {
    type,
    name: body.name as string,
    description: typeof body.description === 'string' ? body.description : '',
    options: Array.isArray(body.options) ? (structuredClone(body.options) as APIApplicationCommandOption[]) : [],
    defaultMemberPermissions: dmp === undefined || dmp === null ? null : String(dmp),
    dmPermission: body.dm_permission !== false,
    contexts: Array.isArray(contexts) ? (contexts as number[]) : null,
    integrationTypes: Array.isArray(integration) ? (integration as number[]) : [0],
    nsfw: body.nsfw === true,
    nameLocalizations: isObj(body.name_localizations) ? (body.name_localizations as Record<string, string>) : null,
    descriptionLocalizations: isObj(body.description_localizations) ? (body.description_localizations as Record<string, string>) : null,
  };
}

function sameContent(a: CommandRecord, b: CommandInput): boolean {
  const pick = (x: CommandInput) =>
    JSON.stringify([x.type, x.name, x.description, x.options, x.defaultMemberPermissions, x.dmPermission, x.contexts, x.integrationTypes, x.nsfw, x.nameLocalizations, x.descriptionLocalizations]);
  return pick(a) === pick(b);
}

function checkCounts(list: Array<{ type: number }>): void {
  const chat = list.filter((c) => c.type === CommandType.ChatInput).length;
  const user = list.filter((c) => c.type === CommandType.User).length;
  const message = list.filter((c) => c.type === CommandType.Message).length;
  if (chat > MAX_CHAT_INPUT_COMMANDS) throw new ApiError(400, 30032, `Maximum number of application commands reached (${MAX_CHAT_INPUT_COMMANDS})`);
  if (user > MAX_CONTEXT_MENU_COMMANDS || message > MAX_CONTEXT_MENU_COMMANDS) {
    throw new ApiError(400, 30032, `Maximum number of application commands reached (${MAX_CONTEXT_MENU_COMMANDS})`);
  }
}

/** PUT /applications/:app[/guilds/:guild]/commands */
export function bulkOverwrite(state: EmulatorState, guildId: string | null, body: unknown): CommandRecord[] {
  if (!Array.isArray(body)) throw new ApiError(400, 50035, 'Invalid Form Body', { _errors: [{ code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' }] });
  const errors = new FormErrors();
  const inputs = body.map((b, i) => validateCommand(b, errors, [i]));
  const seen = new Set<string>();
  inputs.forEach((c, i) => {
    if (!c) return;
    const key = `${c.type}:${c.name}`;
    if (seen.has(key)) errors.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique');
    seen.add(key);
  });
  if (!errors.empty) throw ApiError.form(errors);
  const valid = inputs.filter((c): c is CommandInput => !!c);
  checkCounts(valid);
  const existing = state.commandsFor(guildId);
  const kept = new Set<string>();
  const result: CommandRecord[] = [];
  for (const input of valid) {
    const prev = existing.find((c) => c.name === input.name && c.type === input.type);
    const record = upsert(state, guildId, input, prev);
    kept.add(record.id);
    result.push(record);
  }
  for (const c of existing) if (!kept.has(c.id)) state.commands.delete(c.id);
  state.emit({ type: 'commands.update', guildId, count: result.length });
  return result;
}

function upsert(state: EmulatorState, guildId: string | null, input: CommandInput, prev: CommandRecord | undefined): CommandRecord {
  if (prev && sameContent(prev, input)) return prev;
  const record: CommandRecord = {
    ...input,
    id: prev?.id ?? state.ids.next(),
    applicationId: state.application.id,
    guildId,
    version: state.ids.next(),
  };
  state.commands.set(record.id, record);
  return record;
}

/** POST: creates, or replaces the command with the same name and type (as Discord does, 201 vs 200). */
export function createCommand(state: EmulatorState, guildId: string | null, body: unknown): { record: CommandRecord; created: boolean } {
  const errors = new FormErrors();
  const input = validateCommand(body, errors);
  if (!input) throw ApiError.form(errors);
  const existing = state.commandsFor(guildId);
  const prev = existing.find((c) => c.name === input.name && c.type === input.type);
  if (!prev) checkCounts([...existing, input]);
  const record = upsert(state, guildId, input, prev);
  state.emit({ type: 'commands.update', guildId, count: state.commandsFor(guildId).length });
  return { record, created: !prev };
}

/** PATCH: partial update of one command. */
export function editCommand(state: EmulatorState, record: CommandRecord, body: unknown): CommandRecord {
  if (!isObj(body)) throw new ApiError(400, 50035, 'Invalid Form Body', { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] });
  const merged = { ...toApiCommand(record, true), ...body, type: record.type };
  const errors = new FormErrors();
  const input = validateCommand(merged, errors);
  if (!input) throw ApiError.form(errors);
  const clash = state.commandsFor(record.guildId).find((c) => c.id !== record.id && c.name === input.name && c.type === input.type);
  if (clash) {
    const f = new FormErrors();
    f.add(['name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique');
    throw ApiError.form(f);
  }
  const updated = upsert(state, record.guildId, input, record);
  state.emit({ type: 'commands.update', guildId: record.guildId, count: state.commandsFor(record.guildId).length });
  return updated;
}

export function deleteCommand(state: EmulatorState, record: CommandRecord): void {
  state.commands.delete(record.id);
  state.emit({ type: 'commands.update', guildId: record.guildId, count: state.commandsFor(record.guildId).length });
}

/** The application command object Discord returns. */
export function toApiCommand(c: CommandRecord, withLocalizations = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: c.id,
    application_id: c.applicationId,
    version: c.version,
    default_member_permissions: c.defaultMemberPermissions,
    type: c.type,
    name: c.name,
    description: c.description,
    nsfw: c.nsfw,
    contexts: c.contexts,
    integration_types: c.integrationTypes,
  };
  if (c.guildId) out.guild_id = c.guildId;
  else out.dm_permission = c.dmPermission;
  if (c.options.length) out.options = structuredClone(c.options);
  if (withLocalizations || c.nameLocalizations) out.name_localizations = c.nameLocalizations;
  if (withLocalizations || c.descriptionLocalizations) out.description_localizations = c.descriptionLocalizations;
  return out;
}

/** Whether a command can be used in a bot DM (global only; contexts, else dm_permission). */
export function usableInDm(c: CommandRecord): boolean {
  if (c.guildId) return false;
  if (c.contexts) return c.contexts.includes(1);
  return c.dmPermission;
}
