/**
 * The emulator's web page (the "playground"): a Discord-like client for people, served as plain
 * static files from `src/page/` (no build step, no external assets). The page acts only
 * through the test API (/_test/…) and follows changes live through /_test/events.
 *
 *   GET /                    page/index.html
 *   GET /page/<file>.js|css  the page's ES modules and style sheet
 *
 * Files are read from disk on each request (they are small), so editing them needs no restart.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from './http.ts';

const PAGE_DIR = new URL('./page/', import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

/** Only plain file names from the page folder: no sub-folders, no dot files, no "..". */
const ASSET = /^\/page\/([a-z0-9][a-z0-9-]*\.(js|css|svg))$/;

/** Serves the page and its assets; false when the request is not for them. */
export async function servePage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  let file: string;
  let ext: string;
  if (url.pathname === '/' || url.pathname === '/index.html') {
    file = 'index.html';
    ext = 'html';
  } else {
    const m = ASSET.exec(url.pathname);
    if (!m) return false;
    file = m[1] as string;
    ext = m[2] as string;
  }
  let text: string;
  try {
    text = await readFile(new URL(file, PAGE_DIR), 'utf8');
  } catch {
    return false;
  }
  send(res, { status: 200, text, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream', headers: { 'Cache-Control': 'no-cache' } });
  return true;
}
