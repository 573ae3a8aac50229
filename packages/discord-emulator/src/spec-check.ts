import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Discord's published REST API (OpenAPI 3.1, pinned in the package's spec/pin.json) as a checker: it
 * finds the operation of a request by method and path, and validates a request body and an answer
 * against the schemas the spec gives for that operation and status. JSON Schema 2020-12 is what
 * OpenAPI 3.1 schemas are, so Ajv's 2020 dialect validates them as written.
 *
 * Three places where the spec is known to be wrong and Discord's documentation right are departures
 * taken here on purpose: a 429 body's `code` is optional (real 429 bodies omit it); the field
 * errors inside a 50035 body carry string codes such as `BASE_TYPE_REQUIRED`; and a command's
 * `default_member_permissions` is sent as a string of digits (the documentation's type, what
 * discord.js's builders write, what the spec itself answers with), which the spec's request
 * schemas declare an integer.
 */

const SPEC_URL = new URL('../spec/openapi.json', import.meta.url);
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  method: string;
  template: string;
  operationId: string;
  pattern: RegExp;
  literals: number;
  requestSchema: unknown | null;
  responses: Record<string, unknown | null>;
}

export interface Violation {
  operation: string;
  what: 'unknown route' | 'request' | 'response';
  detail: string;
}

type Content = { content?: Record<string, { schema?: unknown }>; $ref?: string };
type Spec = {
  paths: Record<string, Record<string, { operationId: string; requestBody?: Content; responses?: Record<string, Content> }>>;
  components: { schemas: Record<string, Record<string, unknown>>; responses?: Record<string, Content> };
};

let loaded: DiscordSpec | null = null;

/** The pinned spec, loaded and compiled once per process. */
export function discordSpec(): DiscordSpec {
  loaded ??= new DiscordSpec(JSON.parse(readFileSync(SPEC_URL, 'utf8')) as Spec);
  return loaded;
}

export class DiscordSpec {
  readonly operations: Operation[] = [];
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(spec: Spec) {
    applyDepartures(spec);
    this.ajv.addSchema(spec as object, 'discord');
    for (const [template, item] of Object.entries(spec.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const segments = template.split('/').filter(Boolean);
        const pattern = new RegExp('^/' + segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/') + '$');
        const json = op.requestBody?.content?.['application/json']?.schema ?? null;
        const responses: Record<string, unknown | null> = {};
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          const resolved = r.$ref ? spec.components.responses?.[r.$ref.split('/').pop()!] : r;
          responses[status] = resolved?.content?.['application/json']?.schema ?? null;
        }
        this.operations.push({ method: method.toUpperCase(), template, operationId: op.operationId, pattern, literals: segments.filter((s) => !s.startsWith('{')).length, requestSchema: json, responses });
      }
    }
    // A literal segment beats a parameter (`/commands/permissions` before `/commands/{command_id}`).
    this.operations.sort((a, b) => b.literals - a.literals);
  }

  /** The operation serving `method path` (path without the /api/v10 prefix and query), or null. */
  find(method: string, path: string): Operation | null {
    const bare = path.replace(/^\/api(\/v\d+)?/, '').split('?')[0]!;
    return this.operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(bare)) ?? null;
  }

  /** Everything wrong with one exchange: an unknown route, a request body or an answer the spec does not allow. */
  check(exchange: { method: string; path: string; requestBody: unknown; status: number; responseBody: unknown }): Violation[] {
    const op = this.find(exchange.method, exchange.path);
    const name = `${exchange.method} ${exchange.path.split('?')[0]}`;
    if (!op) return [{ operation: name, what: 'unknown route', detail: 'the spec has no such operation' }];
    const out: Violation[] = [];
    if (exchange.requestBody !== undefined && op.requestSchema) {
      const errors = this.validate(op.requestSchema, exchange.requestBody);
      if (errors) out.push({ operation: op.operationId, what: 'request', detail: describe(errors) });
    }
    const status = String(exchange.status);
    const schema = status in op.responses ? op.responses[status] : op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (schema === undefined) {
      out.push({ operation: op.operationId, what: 'response', detail: `status ${status} is not among the spec's (${Object.keys(op.responses).join(', ')})` });
    } else if (schema && exchange.responseBody !== undefined && exchange.status !== 204) {
      const errors = this.validate(schema, exchange.responseBody);
      if (errors) out.push({ operation: op.operationId, what: 'response', detail: `${status}: ${describe(errors)}` });
    }
    return out;
  }

  private validate(schema: unknown, value: unknown): ErrorObject[] | null {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(rebase(schema) as object);
      this.compiled.set(schema, v);
    }
    return v(value) ? null : (v.errors ?? []);
  }
}

/** A schema taken out of the document: its local references now name the document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `discord${v}` : rebase(v)]));
  }
  return schema;
}

/**
 * The spec's known mistakes, corrected in the loaded copy (see the file's comment): a 429 body
 * need not carry `code`, a field error's `code` is a string, and a command's
 * `default_member_permissions` may be a string of digits.
 */
function applyDepartures(spec: Spec): void {
  const schemas = spec.components.schemas;
  const limited = schemas.RatelimitedResponse as { allOf?: unknown[] } | undefined;
  if (limited?.allOf) limited.allOf[0] = { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } }, required: ['message'] };
  const inner = schemas.InnerErrors as { properties?: { _errors?: { items?: unknown } } } | undefined;
  if (inner?.properties?._errors) inner.properties._errors.items = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] };
  for (const name of ['ApplicationCommandCreateRequest', 'ApplicationCommandUpdateRequest']) {
    const props = (schemas[name] as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (props?.default_member_permissions) props.default_member_permissions = { type: ['string', 'integer', 'null'], pattern: '^[0-9]+$' };
  }
}

function describe(errors: ErrorObject[]): string {
  const shown = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf').slice(0, 4);
  return (shown.length ? shown : errors.slice(0, 2)).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`).join('; ');
}
