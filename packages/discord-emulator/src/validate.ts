/**
 * Payload validation with Discord's limits and error shapes. Each validator adds field errors to a
 * FormErrors (path + Discord error code + message) and returns the normalised value; callers turn a
 * non-empty FormErrors into HTTP 400 `{ code: 50035, message: "Invalid Form Body", errors }`.
 *
 * Error codes and messages are Discord's where known (BASE_TYPE_MAX_LENGTH, BASE_TYPE_BAD_LENGTH,
 * COMPONENT_LAYOUT_WIDTH_EXCEEDED, MAX_EMBED_SIZE_EXCEEDED, …). Lengths count UTF-16 code units.
 */
import type { APIAllowedMentions, APIEmbed, APIMessageReference, APIMessageTopLevelComponent } from 'discord-api-types/v10';
import { FormErrors, type FieldPath } from './errors.ts';
import { walkComponents } from './state.ts';

export const MessageFlag = {
  SUPPRESS_EMBEDS: 1 << 2,
  EPHEMERAL: 1 << 6,
  LOADING: 1 << 7,
  SUPPRESS_NOTIFICATIONS: 1 << 12,
  IS_VOICE_MESSAGE: 1 << 13,
  IS_COMPONENTS_V2: 1 << 15,
} as const;

/** Flags a sender may set; others are ignored as Discord does. */
const SETTABLE_FLAGS = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2 | MessageFlag.IS_VOICE_MESSAGE;

export const Limits = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  embedTotal: 6000,
  actionRows: 5,
  rowWidth: 5,
  customId: 100,
  buttonLabel: 80,
  selectOptions: 25,
  selectOptionText: 100,
  selectPlaceholder: 150,
  nonce: 25,
  choices: 25,
  choiceName: 100,
  choiceValue: 100,
  v2Components: 40,
  textDisplay: 4000,
} as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const maxLen = (n: number) => ({ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${n} or fewer in length.` });
const badLen = (min: number, max: number) => ({ code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between ${min} and ${max} in length.` });
const required = { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };

/** Small helpers that report into a FormErrors at a path. */
class Checker {
  constructor(readonly errors: FormErrors) {}

  add(path: FieldPath, e: { code: string; message: string }): void {
    this.errors.add(path, e.code, e.message);
  }

  /** A string field: type, then length. Returns the string (or undefined when absent/invalid). */
  string(path: FieldPath, v: unknown, opts: { max?: number; min?: number; required?: boolean } = {}): string | undefined {
    if (v === undefined || v === null) {
      if (opts.required) this.add(path, required);
      return undefined;
    }
    if (typeof v !== 'string') {
      this.add(path, { code: 'BASE_TYPE_STRING', message: `Could not interpret "${JSON.stringify(v)}" as string.` });
      return undefined;
    }
    const min = opts.min ?? 0;
    if (opts.max !== undefined && min > 0 && (v.length < min || v.length > opts.max)) this.add(path, badLen(min, opts.max));
    else if (opts.max !== undefined && v.length > opts.max) this.add(path, maxLen(opts.max));
    else if (min > 0 && v.length < min) this.add(path, { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${min} or more in length.` });
    return v;
  }

  int(path: FieldPath, v: unknown, opts: { min?: number; max?: number; required?: boolean } = {}): number | undefined {
    if (v === undefined || v === null) {
      if (opts.required) this.add(path, required);
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.add(path, { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(v)}" is not int.` });
      return undefined;
    }
    if (opts.min !== undefined && v < opts.min) this.add(path, { code: 'NUMBER_TYPE_MIN', message: `int value should be greater than or equal to ${opts.min}.` });
    if (opts.max !== undefined && v > opts.max) this.add(path, { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${opts.max}.` });
    return v;
  }

  bool(path: FieldPath, v: unknown): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.add(path, { code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' });
      return undefined;
    }
    return v;
  }

  array(path: FieldPath, v: unknown): unknown[] | undefined {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) {
      this.add(path, { code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' });
      return undefined;
    }
    return v;
  }

  object(path: FieldPath, v: unknown, opts: { required?: boolean } = {}): Obj | undefined {
    if (v === undefined || v === null) {
      if (opts.required) this.add(path, required);
      return undefined;
    }
    if (!isObj(v)) {
      this.add(path, { code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' });
      return undefined;
    }
    return v;
  }

  url(path: FieldPath, v: unknown, schemes = ['http:', 'https:']): string | undefined {
    const s = this.string(path, v, { max: 2048 });
    if (s === undefined) return undefined;
    let ok = false;
    try {
      ok = schemes.includes(new URL(s).protocol);
    } catch {
      ok = false;
    }
    if (!ok) this.add(path, { code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' });
    return s;
  }
}

// ---- messages --------------------------------------------------------------------------------

export interface MessagePayload {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIMessageTopLevelComponent[];
  flags?: number;
  tts?: boolean;
  nonce?: string | number;
  enforceNonce?: boolean;
  allowedMentions?: APIAllowedMentions;
  messageReference?: APIMessageReference & { fail_if_not_exists?: boolean };
  /** `attachments` as sent: ids of existing attachments to keep and metadata for uploaded files. */
  attachments?: Array<{ id: string; filename?: string; description?: string; title?: string }>;
  stickerIds?: string[];
  hasPoll?: boolean;
}

export interface MessageValidationOptions {
  /** Where the message object sits in the request body (['data'] for interaction callbacks). */
  prefix?: FieldPath;
  /** Interaction responses and followups may set EPHEMERAL. */
  allowEphemeral?: boolean;
}

/** Validates a message create/edit body. Absent fields stay absent (edits are partial). */
export function validateMessagePayload(body: unknown, errors: FormErrors, opts: MessageValidationOptions = {}): MessagePayload {
  const c = new Checker(errors);
  const p = opts.prefix ?? [];
  const out: MessagePayload = {};
  if (body === undefined || body === null) return out;
  if (!isObj(body)) {
    c.add(p, { code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' });
    return out;
  }

  const content = c.string([...p, 'content'], body.content, { max: Limits.content });
  if (content !== undefined) out.content = content;

  if (body.flags !== undefined && body.flags !== null) {
    const flags = c.int([...p, 'flags'], body.flags, { min: 0 });
    if (flags !== undefined) {
      const allowed = SETTABLE_FLAGS | (opts.allowEphemeral ? MessageFlag.EPHEMERAL : 0);
      out.flags = flags & allowed;
    }
  }
  const v2 = ((out.flags ?? 0) & MessageFlag.IS_COMPONENTS_V2) !== 0;

  const tts = c.bool([...p, 'tts'], body.tts);
  if (tts !== undefined) out.tts = tts;

  if (body.nonce !== undefined && body.nonce !== null) {
    if (typeof body.nonce === 'string') {
      if (body.nonce.length > Limits.nonce) c.add([...p, 'nonce'], maxLen(Limits.nonce));
      else out.nonce = body.nonce;
    } else if (typeof body.nonce === 'number' && Number.isInteger(body.nonce)) out.nonce = body.nonce;
    else c.add([...p, 'nonce'], { code: 'BASE_TYPE_STRING', message: 'Must be a string or an integer.' });
  }
  const enforce = c.bool([...p, 'enforce_nonce'], body.enforce_nonce);
  if (enforce !== undefined) out.enforceNonce = enforce;

  const embeds = c.array([...p, 'embeds'], body.embeds);
  if (embeds) {
    if (embeds.length > Limits.embeds) c.add([...p, 'embeds'], maxLen(Limits.embeds));
    out.embeds = validateEmbeds(c, [...p, 'embeds'], embeds);
    if (v2 && embeds.length) c.add([...p, 'embeds'], { code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', message: 'The \'embeds\' field cannot be used when using MessageFlags.IS_COMPONENTS_V2' });
  }

  const components = c.array([...p, 'components'], body.components);
  if (components) out.components = validateComponents(c, [...p, 'components'], components, v2);
  if (v2 && out.content) c.add([...p, 'content'], { code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2', message: 'The \'content\' field cannot be used when using MessageFlags.IS_COMPONENTS_V2' });

  const am = c.object([...p, 'allowed_mentions'], body.allowed_mentions);
  if (am) out.allowedMentions = am as APIAllowedMentions;

  const ref = c.object([...p, 'message_reference'], body.message_reference);
  if (ref) out.messageReference = ref as unknown as MessagePayload['messageReference'];

  const attachments = c.array([...p, 'attachments'], body.attachments);
  if (attachments) {
    out.attachments = [];
    attachments.forEach((a, i) => {
      const o = c.object([...p, 'attachments', i], a, { required: true });
      if (!o) return;
      const id = o.id;
      if (typeof id !== 'string' && typeof id !== 'number') {
        c.add([...p, 'attachments', i, 'id'], required);
        return;
      }
      const entry: { id: string; filename?: string; description?: string; title?: string } = { id: String(id) };
      const filename = c.string([...p, 'attachments', i, 'filename'], o.filename, { max: 1024 });
      if (filename) entry.filename = filename;
      const description = c.string([...p, 'attachments', i, 'description'], o.description, { max: 1024 });
      if (description) entry.description = description;
      if (typeof o.title === 'string') entry.title = o.title;
      out.attachments?.push(entry);
    });
  }

  const stickers = c.array([...p, 'sticker_ids'], body.sticker_ids);
  if (stickers) {
    if (stickers.length > 3) c.add([...p, 'sticker_ids'], maxLen(3));
    out.stickerIds = stickers.map(String);
  }
  if (isObj(body.poll)) out.hasPoll = true;
  return out;
}

function validateEmbeds(c: Checker, path: FieldPath, embeds: unknown[]): APIEmbed[] {
  const out: APIEmbed[] = [];
  let total = 0;
  embeds.forEach((raw, i) => {
    const ep = [...path, i];
    const e = c.object(ep, raw, { required: true });
    if (!e) return;
    const title = c.string([...ep, 'title'], e.title, { max: Limits.embedTitle });
    const description = c.string([...ep, 'description'], e.description, { max: Limits.embedDescription });
    total += (title?.length ?? 0) + (description?.length ?? 0);
    if (e.url !== undefined && e.url !== null) c.url([...ep, 'url'], e.url);
    if (e.color !== undefined && e.color !== null) c.int([...ep, 'color'], e.color, { min: 0, max: 0xffffff });
    if (e.timestamp !== undefined && e.timestamp !== null) {
      if (typeof e.timestamp !== 'string' || Number.isNaN(Date.parse(e.timestamp))) {
        c.add([...ep, 'timestamp'], { code: 'DATE_TYPE_PARSE', message: `Could not parse ${JSON.stringify(e.timestamp)}. Should be ISO8601.` });
      }
    }
    const footer = c.object([...ep, 'footer'], e.footer);
    if (footer) {
      const text = c.string([...ep, 'footer', 'text'], footer.text, { max: Limits.footerText, required: true });
      total += text?.length ?? 0;
      if (footer.icon_url !== undefined && footer.icon_url !== null) c.url([...ep, 'footer', 'icon_url'], footer.icon_url, ['http:', 'https:', 'attachment:']);
    }
    const author = c.object([...ep, 'author'], e.author);
    if (author) {
      const name = c.string([...ep, 'author', 'name'], author.name, { max: Limits.authorName, required: true });
      total += name?.length ?? 0;
      if (author.url !== undefined && author.url !== null) c.url([...ep, 'author', 'url'], author.url);
      if (author.icon_url !== undefined && author.icon_url !== null) c.url([...ep, 'author', 'icon_url'], author.icon_url, ['http:', 'https:', 'attachment:']);
    }
    for (const key of ['image', 'thumbnail'] as const) {
      const media = c.object([...ep, key], e[key]);
      if (media) c.url([...ep, key, 'url'], media.url ?? '', ['http:', 'https:', 'attachment:']);
    }
    const fields = c.array([...ep, 'fields'], e.fields);
    if (fields) {
      if (fields.length > Limits.embedFields) c.add([...ep, 'fields'], maxLen(Limits.embedFields));
      fields.forEach((f, j) => {
        const fp = [...ep, 'fields', j];
        const field = c.object(fp, f, { required: true });
        if (!field) return;
        const name = c.string([...fp, 'name'], field.name, { max: Limits.fieldName, required: true });
        const value = c.string([...fp, 'value'], field.value, { max: Limits.fieldValue, required: true });
        c.bool([...fp, 'inline'], field.inline);
        total += (name?.length ?? 0) + (value?.length ?? 0);
      });
    }
    const normalised = { ...e, type: typeof e.type === 'string' ? e.type : 'rich' } as APIEmbed;
    if (normalised.fields) normalised.fields = normalised.fields.map((f) => ({ ...f, inline: f.inline ?? false }));
    out.push(normalised);
  });
  if (total > Limits.embedTotal) c.add(path, { code: 'MAX_EMBED_SIZE_EXCEEDED', message: `Embed size exceeds maximum size of ${Limits.embedTotal}` });
  return out;
}

const BUTTON = 2;
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);
const V2_TOP_LEVEL = new Set([1, 9, 10, 12, 13, 14, 17]);

/** Validates message components (action rows; Components V2 layouts when the flag is set). */
export function validateComponents(c: Checker, path: FieldPath, components: unknown[], v2: boolean): APIMessageTopLevelComponent[] {
  const customIds = new Map<string, FieldPath>();
  if (!v2 && components.length > Limits.actionRows) c.add(path, maxLen(Limits.actionRows));
  if (v2) {
    let count = 0;
    for (const _ of walkComponents(components)) count++;
    if (count > Limits.v2Components) c.add(path, { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${Limits.v2Components} or fewer in length.` });
  }
  components.forEach((raw, i) => {
    const cp = [...path, i];
    const comp = c.object(cp, raw, { required: true });
    if (!comp) return;
    const type = comp.type;
    if (!v2) {
      if (type !== 1) {
        c.add([...cp, 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (1,).' });
        return;
      }
      validateActionRow(c, cp, comp, customIds);
    } else {
      if (typeof type !== 'number' || !V2_TOP_LEVEL.has(type)) {
        c.add([...cp, 'type'], { code: 'UNION_TYPE_CHOICES', message: `Value of field "type" must be one of (${[...V2_TOP_LEVEL].join(', ')}).` });
        return;
      }
      validateV2Component(c, cp, comp, customIds);
    }
  });
  return assignComponentIds(components as APIMessageTopLevelComponent[]);
}

function validateV2Component(c: Checker, path: FieldPath, comp: Obj, customIds: Map<string, FieldPath>): void {
  switch (comp.type) {
    case 1:
      validateActionRow(c, path, comp, customIds);
      break;
    case 10:
      c.string([...path, 'content'], comp.content, { min: 1, max: Limits.textDisplay, required: true });
      break;
    case 9: {
      const parts = c.array([...path, 'components'], comp.components);
      if (!parts || parts.length < 1 || parts.length > 3) c.add([...path, 'components'], badLen(1, 3));
      parts?.forEach((p, i) => {
        const o = c.object([...path, 'components', i], p, { required: true });
        if (o && o.type !== 10) c.add([...path, 'components', i, 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (10,).' });
        else if (o) validateV2Component(c, [...path, 'components', i], o, customIds);
      });
      const acc = c.object([...path, 'accessory'], comp.accessory, { required: true });
      if (acc && acc.type === BUTTON) validateButton(c, [...path, 'accessory'], acc, customIds);
      else if (acc && acc.type !== 11) c.add([...path, 'accessory', 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (2, 11).' });
      break;
    }
    case 17: {
      const inner = c.array([...path, 'components'], comp.components) ?? [];
      if (comp.accent_color !== undefined && comp.accent_color !== null) c.int([...path, 'accent_color'], comp.accent_color, { min: 0, max: 0xffffff });
      inner.forEach((p, i) => {
        const o = c.object([...path, 'components', i], p, { required: true });
        if (!o) return;
        if (o.type === 17 || typeof o.type !== 'number' || !V2_TOP_LEVEL.has(o.type)) {
          c.add([...path, 'components', i, 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (1, 9, 10, 12, 13, 14).' });
        } else validateV2Component(c, [...path, 'components', i], o, customIds);
      });
      break;
    }
    default:
      break; // media gallery, file, separator: accepted as sent
  }
}

function validateActionRow(c: Checker, path: FieldPath, row: Obj, customIds: Map<string, FieldPath>): void {
  const children = c.array([...path, 'components'], row.components);
  if (!children) {
    c.add([...path, 'components'], required);
    return;
  }
  if (children.length === 0) {
    c.add([...path, 'components'], badLen(1, Limits.rowWidth));
    return;
  }
  let width = 0;
  children.forEach((raw, j) => {
    const cp = [...path, 'components', j];
    const comp = c.object(cp, raw, { required: true });
    if (!comp) return;
    if (comp.type === BUTTON) {
      width += 1;
      if (width > Limits.rowWidth) c.add(cp, { code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', message: 'The specified component exceeds the maximum width' });
      validateButton(c, cp, comp, customIds);
    } else if (typeof comp.type === 'number' && SELECT_TYPES.has(comp.type)) {
      width += Limits.rowWidth;
      if (width > Limits.rowWidth) c.add(cp, { code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', message: 'The specified component exceeds the maximum width' });
      validateSelect(c, cp, comp, customIds);
    } else {
      c.add([...cp, 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).' });
    }
  });
}

function checkCustomId(c: Checker, path: FieldPath, v: unknown, customIds: Map<string, FieldPath>): void {
  if (v === undefined || v === null) {
    c.add(path, required);
    return;
  }
  const id = c.string(path, v, { min: 1, max: Limits.customId });
  if (id === undefined) return;
  if (customIds.has(id)) c.add(path, { code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' });
  else customIds.set(id, path);
}

function validateButton(c: Checker, path: FieldPath, b: Obj, customIds: Map<string, FieldPath>): void {
  const style = b.style;
  if (typeof style !== 'number' || !Number.isInteger(style) || style < 1 || style > 6) {
    c.add([...path, 'style'], { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3, 4, 5, 6}.' });
    return;
  }
  c.string([...path, 'label'], b.label, { max: Limits.buttonLabel });
  c.bool([...path, 'disabled'], b.disabled);
  if (style === 5) {
    if (b.url === undefined || b.url === null) c.add([...path, 'url'], { code: 'BUTTON_COMPONENT_URL_REQUIRED', message: 'A url is required' });
    else c.url([...path, 'url'], b.url, ['http:', 'https:', 'discord:']);
    if (b.custom_id !== undefined && b.custom_id !== null) c.add([...path, 'custom_id'], { code: 'BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED', message: 'A custom id cannot be specified for link buttons' });
  } else if (style === 6) {
    if (typeof b.sku_id !== 'string') c.add([...path, 'sku_id'], required);
  } else {
    checkCustomId(c, [...path, 'custom_id'], b.custom_id, customIds);
    if (b.url !== undefined && b.url !== null) c.add([...path, 'url'], { code: 'BUTTON_COMPONENT_URL_NOT_ALLOWED', message: 'A url cannot be specified for non-link buttons' });
  }
  if (style !== 6 && (b.label === undefined || b.label === null || b.label === '') && !isObj(b.emoji)) {
    c.add([...path, 'label'], { code: 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED', message: 'A label or an emoji is required' });
  }
}

function validateSelect(c: Checker, path: FieldPath, s: Obj, customIds: Map<string, FieldPath>): void {
  checkCustomId(c, [...path, 'custom_id'], s.custom_id, customIds);
  c.string([...path, 'placeholder'], s.placeholder, { max: Limits.selectPlaceholder });
  c.bool([...path, 'disabled'], s.disabled);
  const min = c.int([...path, 'min_values'], s.min_values, { min: 0, max: 25 }) ?? 1;
  const max = c.int([...path, 'max_values'], s.max_values, { min: 1, max: 25 }) ?? 1;
  if (min > max) c.add([...path, 'min_values'], { code: 'SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX', message: 'min_values must be less than or equal to max_values' });
  if (s.type !== 3) return;
  const options = c.array([...path, 'options'], s.options);
  if (!options) {
    c.add([...path, 'options'], required);
    return;
  }
  if (options.length < 1 || options.length > Limits.selectOptions) c.add([...path, 'options'], badLen(1, Limits.selectOptions));
  const values = new Set<string>();
  options.forEach((raw, k) => {
    const op = [...path, 'options', k];
    const o = c.object(op, raw, { required: true });
    if (!o) return;
    c.string([...op, 'label'], o.label, { min: 1, max: Limits.selectOptionText, required: true });
    const value = c.string([...op, 'value'], o.value, { min: 1, max: Limits.selectOptionText, required: true });
    c.string([...op, 'description'], o.description, { max: Limits.selectOptionText });
    c.bool([...op, 'default'], o.default);
    if (value !== undefined) {
      if (values.has(value)) c.add([...op, 'value'], { code: 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED', message: 'Select component option values must be unique' });
      values.add(value);
    }
  });
  if (options.length >= 1 && options.length <= Limits.selectOptions && max > options.length) {
    c.add([...path, 'max_values'], { code: 'SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS', message: 'max_values must be less than or equal to the number of options' });
  }
}

/**
 * Discord numbers every component of a message (`id`, 1-based, depth first) when the sender did
 * not, and answers select menus with their `min_values` and `max_values` filled in (1 when absent),
 * as its API spec requires of the message it returns.
 */
function assignComponentIds(components: APIMessageTopLevelComponent[]): APIMessageTopLevelComponent[] {
  const copy = structuredClone(components);
  for (const comp of walkComponents(copy)) {
    if (typeof comp.type === 'number' && (comp.type === 3 || (comp.type >= 5 && comp.type <= 8))) {
      comp.min_values ??= 1;
      comp.max_values ??= 1;
    }
  }
  const used = new Set<number>();
  for (const comp of walkComponents(copy)) if (typeof comp.id === 'number') used.add(comp.id);
  let next = 1;
  for (const comp of walkComponents(copy)) {
    if (typeof comp.id === 'number') continue;
    while (used.has(next)) next++;
    comp.id = next;
    used.add(next);
  }
  return copy;
}

// ---- autocomplete and modals -----------------------------------------------------------------

export interface Choice {
  name: string;
  value: string | number;
  name_localizations?: Record<string, string> | null;
}

export function validateAutocompleteData(data: unknown, errors: FormErrors, prefix: FieldPath = ['data']): Choice[] {
  const c = new Checker(errors);
  const d = c.object(prefix, data, { required: true });
  if (!d) return [];
  const choices = c.array([...prefix, 'choices'], d.choices);
  if (!choices) {
    c.add([...prefix, 'choices'], required);
    return [];
  }
  if (choices.length > Limits.choices) c.add([...prefix, 'choices'], maxLen(Limits.choices));
  const out: Choice[] = [];
  choices.forEach((raw, i) => {
    const cp = [...prefix, 'choices', i];
    const o = c.object(cp, raw, { required: true });
    if (!o) return;
    const name = c.string([...cp, 'name'], o.name, { min: 1, max: Limits.choiceName, required: true });
    let value: string | number | undefined;
    if (typeof o.value === 'string') {
      if (o.value.length > Limits.choiceValue) c.add([...cp, 'value'], maxLen(Limits.choiceValue));
      value = o.value;
    } else if (typeof o.value === 'number' && Number.isFinite(o.value)) value = o.value;
    else c.add([...cp, 'value'], required);
    if (name !== undefined && value !== undefined) out.push({ name, value });
  });
  return out;
}

/** A modal as shown to the user: the text inputs / selects they will fill, by custom_id. */
export interface ModalField {
  customId: string;
  type: number;
  /** Text inputs */
  required: boolean;
  minLength: number;
  maxLength: number;
  /** Selects inside labels */
  options?: string[];
  minValues?: number;
  maxValues?: number;
  /** 'row' for legacy action rows, 'label' for label components. */
  container: 'row' | 'label';
}

export interface ModalDefinition {
  customId: string;
  title: string;
  components: unknown[];
  fields: ModalField[];
}

export function validateModalData(data: unknown, errors: FormErrors, prefix: FieldPath = ['data']): ModalDefinition | undefined {
  const c = new Checker(errors);
  const d = c.object(prefix, data, { required: true });
  if (!d) return undefined;
  const customIds = new Map<string, FieldPath>();
  checkCustomId(c, [...prefix, 'custom_id'], d.custom_id, customIds);
  const title = c.string([...prefix, 'title'], d.title, { min: 1, max: 45, required: true });
  const rows = c.array([...prefix, 'components'], d.components);
  if (!rows) {
    c.add([...prefix, 'components'], required);
    return undefined;
  }
  if (rows.length < 1 || rows.length > 5) c.add([...prefix, 'components'], badLen(1, 5));
  const fields: ModalField[] = [];
  const textInput = (path: FieldPath, t: Obj, container: 'row' | 'label') => {
    checkCustomId(c, [...path, 'custom_id'], t.custom_id, customIds);
    const style = t.style;
    if (style !== 1 && style !== 2) c.add([...path, 'style'], { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2}.' });
    if (container === 'row') c.string([...path, 'label'], t.label, { min: 1, max: 45, required: true });
    const minLength = c.int([...path, 'min_length'], t.min_length, { min: 0, max: 4000 }) ?? 0;
    const maxLength = c.int([...path, 'max_length'], t.max_length, { min: 1, max: 4000 }) ?? 4000;
    c.string([...path, 'value'], t.value, { max: 4000 });
    c.string([...path, 'placeholder'], t.placeholder, { max: 100 });
    if (typeof t.custom_id === 'string') {
      fields.push({ customId: t.custom_id, type: 4, required: t.required !== false, minLength, maxLength, container });
    }
  };
  rows.forEach((raw, i) => {
    const rp = [...prefix, 'components', i];
    const row = c.object(rp, raw, { required: true });
    if (!row) return;
    if (row.type === 1) {
      const inner = c.array([...rp, 'components'], row.components) ?? [];
      if (inner.length !== 1) c.add([...rp, 'components'], badLen(1, 1));
      const t = c.object([...rp, 'components', 0], inner[0], { required: true });
      if (t && t.type !== 4) c.add([...rp, 'components', 0, 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (4,).' });
      else if (t) textInput([...rp, 'components', 0], t, 'row');
    } else if (row.type === 18) {
      c.string([...rp, 'label'], row.label, { min: 1, max: 45, required: true });
      c.string([...rp, 'description'], row.description, { max: 100 });
      const inner = c.object([...rp, 'component'], row.component, { required: true });
      if (!inner) return;
      if (inner.type === 4) textInput([...rp, 'component'], inner, 'label');
      else if (typeof inner.type === 'number' && SELECT_TYPES.has(inner.type)) {
        validateSelect(c, [...rp, 'component'], inner, customIds);
        if (typeof inner.custom_id === 'string') {
          const options = Array.isArray(inner.options) ? inner.options.map((o) => String((o as Obj).value)) : undefined;
          fields.push({
            customId: inner.custom_id,
            type: inner.type,
            required: inner.required !== false,
            minLength: 0,
            maxLength: 0,
            ...(options ? { options } : {}),
            minValues: typeof inner.min_values === 'number' ? inner.min_values : 1,
            maxValues: typeof inner.max_values === 'number' ? inner.max_values : 1,
            container: 'label',
          });
        }
      } else c.add([...rp, 'component', 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (3, 4, 5, 6, 7, 8).' });
    } else if (row.type === 10) {
      c.string([...rp, 'content'], row.content, { min: 1, max: Limits.textDisplay, required: true });
    } else {
      c.add([...rp, 'type'], { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (1, 10, 18).' });
    }
  });
  if (errors.empty && typeof d.custom_id === 'string' && title !== undefined) {
    return { customId: d.custom_id, title, components: structuredClone(rows), fields };
  }
  return undefined;
}

/** Whether a message (after applying a payload) has anything to show. */
export function isEmptyMessage(m: { content: string; embeds: unknown[]; components: unknown[]; attachments: unknown[]; stickers?: number; poll?: boolean }): boolean {
  return m.content.trim() === '' && m.embeds.length === 0 && m.components.length === 0 && m.attachments.length === 0 && !m.stickers && !m.poll;
}
