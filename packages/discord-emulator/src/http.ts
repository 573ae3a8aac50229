/** A small router and the request/response plumbing shared by the REST API and the test API. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, Errors } from './errors.ts';

export interface UploadedFile {
  /** The multipart field name, e.g. "files[0]". */
  field: string;
  /** The index in files[n] (Discord matches it to attachments[].id). */
  index: number;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface ParsedBody {
  json: unknown;
  files: UploadedFile[];
}

export interface RequestContext {
  req: IncomingMessage;
  method: string;
  /** Path after the mount prefix (e.g. "/channels/1/messages" for "/api/v10/channels/1/messages"). */
  path: string;
  url: URL;
  params: Record<string, string>;
  query: URLSearchParams;
  body(): Promise<ParsedBody>;
}

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; text: string; contentType: string; headers?: Record<string, string> }
  | { status: number; bytes: Buffer; contentType: string; headers?: Record<string, string> }
  | { status: 204; headers?: Record<string, string> };

/** A handler returns a Reply, or null when it wrote the response itself (event streams). */
export type Handler<C extends RequestContext = RequestContext> = (ctx: C) => Promise<Reply | null> | Reply | null;

interface Route<C extends RequestContext> {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler<C>;
  meta: RouteMeta;
}

export interface RouteMeta {
  /** Bot routes need `Authorization: Bot <token>`; interaction webhooks and callbacks do not. */
  auth?: boolean;
}

export interface RouteMatch<C extends RequestContext> {
  route: Route<C>;
  params: Record<string, string>;
}

export class Router<C extends RequestContext = RequestContext> {
  private readonly routes: Route<C>[] = [];

  add(method: string, pattern: string, handler: Handler<C>, meta: RouteMeta = {}): this {
    this.routes.push({ method, pattern, segments: split(pattern), handler, meta });
    return this;
  }

  /** Every route, in the order of registration. */
  list(): Array<{ method: string; pattern: string }> {
    return this.routes.map((r) => ({ method: r.method, pattern: r.pattern }));
  }

  get(p: string, h: Handler<C>, m?: RouteMeta) {
    return this.add('GET', p, h, m);
  }
  post(p: string, h: Handler<C>, m?: RouteMeta) {
    return this.add('POST', p, h, m);
  }
  put(p: string, h: Handler<C>, m?: RouteMeta) {
    return this.add('PUT', p, h, m);
  }
  patch(p: string, h: Handler<C>, m?: RouteMeta) {
    return this.add('PATCH', p, h, m);
  }
  delete(p: string, h: Handler<C>, m?: RouteMeta) {
    return this.add('DELETE', p, h, m);
  }

  /**
   * The matching route; `methodNotAllowed` when the path exists with other methods. A literal
   * segment beats a parameter at the same place, whatever the order of registration, as on
   * Discord (`…/commands/permissions` is not the command "permissions").
   */
  match(method: string, path: string): RouteMatch<C> | 'methodNotAllowed' | undefined {
    const segs = split(path);
    let pathMatched = false;
    let best: RouteMatch<C> | undefined;
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segs);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
      if (!best || moreSpecific(route.segments, best.route.segments)) best = { route, params };
    }
    return best ?? (pathMatched ? 'methodNotAllowed' : undefined);
  }
}

/** Whether pattern `a` is more specific than `b`: at the first place they differ, `a` has a literal and `b` a parameter. */
function moreSpecific(a: string[], b: string[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const pa = a[i]!.startsWith(':');
    const pb = b[i]!.startsWith(':');
    if (pa !== pb) return pb;
  }
  return false;
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], segs: string[]): Record<string, string> | undefined {
  if (pattern.length !== segs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const s = segs[i] as string;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(s);
      } catch {
        return undefined;
      }
    } else if (p !== s) return undefined;
  }
  return params;
}

/** Whether a concrete "METHOD /path" is matched by a fault-style route pattern ("POST /channels/:id/messages", "*"). */
export function routePatternMatches(pattern: string, method: string, path: string): boolean {
  const trimmed = pattern.trim();
  if (trimmed === '*') return true;
  const m = /^([A-Z*]+)\s+(\S+)$/.exec(trimmed);
  if (!m) return false;
  const [, pm, pp] = m;
  if (pm !== '*' && pm !== method) return false;
  const pathOnly = (pp as string).replace(/^\/api(\/v\d+)?/, '');
  return matchSegments(split(pathOnly), split(path)) !== undefined || (pathOnly.endsWith('/*') && path.startsWith(pathOnly.slice(0, -1)));
}

const MAX_BODY = 26 * 1024 * 1024;

export async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY) throw new ApiError(413, 40005, 'Request entity too large');
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** Parses JSON or multipart/form-data (payload_json + files[n]) bodies as Discord accepts them. */
export async function parseBody(req: IncomingMessage, raw: Buffer): Promise<ParsedBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (raw.length === 0) return { json: undefined, files: [] };
  if (type.startsWith('multipart/form-data')) {
    const form = await new Request('http://emulator.local/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: raw,
    }).formData();
    let json: unknown = undefined;
    const files: UploadedFile[] = [];
    let auto = 0;
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') json = parseJson(value);
        continue;
      }
      const m = /^files\[(\d+)\]$/.exec(field) ?? /^file(\d*)$/.exec(field);
      const index = m?.[1] ? Number(m[1]) : auto;
      auto = Math.max(auto, index + 1);
      files.push({
        field,
        index,
        filename: value.name || `file${index}`,
        contentType: value.type || 'application/octet-stream',
        bytes: Buffer.from(await value.arrayBuffer()),
      });
    }
    return { json, files };
  }
  return { json: parseJson(raw.toString('utf8')), files: [] };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw Errors.badJson();
  }
}

export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if ('json' in reply) {
    const body = JSON.stringify(reply.json);
    res.writeHead(reply.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body).toString(), ...headers });
    res.end(body);
  } else if ('text' in reply) {
    res.writeHead(reply.status, { 'Content-Type': reply.contentType, 'Content-Length': Buffer.byteLength(reply.text).toString(), ...headers });
    res.end(reply.text);
  } else if ('bytes' in reply) {
    res.writeHead(reply.status, { 'Content-Type': reply.contentType, 'Content-Length': reply.bytes.length.toString(), ...headers });
    res.end(reply.bytes);
  } else {
    // 204: no body and no Content-Type, so clients do not try to parse anything.
    res.writeHead(204, headers);
    res.end();
  }
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => (headers ? { status, json: body, headers } : { status, json: body });
export const noContent = (): Reply => ({ status: 204 });
