import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy between the bot and the emulator that records every REST exchange as it passed:
 * method, path, the request's JSON (or a multipart upload's `payload_json`), status and answer.
 * The bot is pointed at it instead of the emulator (`rest.api`), as a bot author would put a
 * recording proxy between their bot and Discord.
 */
export interface Exchange {
  method: string;
  path: string;
  contentType: string;
  requestBody: unknown;
  files: number;
  status: number;
  responseBody: unknown;
}

export interface RecordingProxy {
  /** The proxy's base URL (same paths as the target). */
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** The JSON of a body: plain JSON, or the `payload_json` part of multipart/form-data; undefined if none. */
function bodyOf(contentType: string, raw: Buffer): { json: unknown; files: number } {
  if (raw.length === 0) return { json: undefined, files: 0 };
  if (contentType.startsWith('application/json')) return { json: JSON.parse(raw.toString('utf8')), files: 0 };
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (contentType.startsWith('multipart/form-data') && boundary) {
    const parts = raw.toString('latin1').split(`--${boundary}`);
    let json: unknown = undefined;
    let files = 0;
    for (const part of parts) {
      const [head, ...rest] = part.split('\r\n\r\n');
      if (!head) continue;
      const name = /name="([^"]+)"/.exec(head)?.[1];
      if (name === 'payload_json') json = JSON.parse(Buffer.from(rest.join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1').toString('utf8'));
      else if (name?.startsWith('files[')) files++;
    }
    return { json, files };
  }
  return { json: raw.toString('utf8'), files: 0 };
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const base = new URL(target);
  const exchanges: Exchange[] = [];
  const server: Server = createServer(async (req, res) => {
    const raw = await readAll(req);
    const upstream = request(
      { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: { ...req.headers, host: base.host } },
      async (answer) => {
        const body = await readAll(answer);
        const contentType = String(req.headers['content-type'] ?? '');
        const sent = bodyOf(contentType, raw);
        const answerType = String(answer.headers['content-type'] ?? '');
        exchanges.push({
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          contentType,
          requestBody: sent.json,
          files: sent.files,
          status: answer.statusCode ?? 0,
          responseBody: body.length && answerType.startsWith('application/json') ? JSON.parse(body.toString('utf8')) : undefined,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    upstream.end(raw);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
