import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/client.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

interface Ready {
  pid: number;
  url: string;
  apiBase: string;
  botToken: string;
  users: Record<string, string>;
  guilds: Array<{ channels: Record<string, string> }>;
}

const dir = mkdtempSync(path.join(tmpdir(), 'emu-durable-'));
const dataDir = path.join(dir, 'data');
const serverFile = path.join(dir, 'server.json');
writeFileSync(
  serverFile,
  JSON.stringify({
    bot: { username: 'Durabot' },
    users: [
      { alias: 'owner', username: 'owner' },
      { alias: 'alice', username: 'alice' },
    ],
    guilds: [{ name: 'Durable', owner: 'owner', channels: [{ name: 'general' }, { name: 'games' }] }],
  }),
);
const procs: ChildProcess[] = [];
afterAll(() => {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** The standalone emulator with a data folder, as `npm start` runs it. */
function start(): Promise<{ proc: ChildProcess; ready: Ready }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, EMULATOR_PORT: '0', EMULATOR_SERVER_FILE: serverFile, EMULATOR_READY_JSON: '1', EMULATOR_RATE_LIMITS: 'off', EMULATOR_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  procs.push(proc);
  return new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line && buf.includes('\n')) resolve({ proc, ready: JSON.parse(line) as Ready });
    });
    proc.once('exit', (code) => reject(new Error(`emulator exited (${code})`)));
  });
}

function rest(ready: Ready) {
  return async (method: string, route: string, body?: unknown, file?: { name: string; bytes: Buffer }): Promise<Record<string, unknown>> => {
    const headers: Record<string, string> = { authorization: `Bot ${ready.botToken}` };
    let payload: FormData | string | undefined;
    if (file) {
      const form = new FormData();
      form.append('payload_json', JSON.stringify(body));
      form.append('files[0]', new Blob([file.bytes], { type: 'image/png' }), file.name);
      payload = form;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${ready.apiBase}/v10${route}`, { method, headers, ...(payload ? { body: payload } : {}) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
}

describe('a hard kill of the emulator loses nothing the bot was told was done', () => {
  it('a message posted, an upload, a DM, an edit, a deletion, commands, an enforced nonce and a permission change survive SIGKILL right after the answer', async () => {
    const first = await start();
    const call = rest(first.ready);
    const games = first.ready.guilds[0]!.channels.games!;
    const general = first.ready.guilds[0]!.channels.general!;
    const emu = new EmulatorClient(first.ready.url);
    await emu.setOverwrite({ channel: 'general', user: 'bot', deny: ['ATTACH_FILES'] });
    const gone = await call('POST', `/channels/${games}/messages`, { content: 'deleted later' });
    const board = await call('POST', `/channels/${games}/messages`, { content: 'the board', attachments: [{ id: 0, filename: 'board.png' }] }, { name: 'board.png', bytes: Buffer.from('png bytes') });
    const dmChannel = await call('POST', '/users/@me/channels', { recipient_id: first.ready.users.alice });
    const dm = await call('POST', `/channels/${dmChannel.id as string}/messages`, { content: 'your turn' });
    await call('DELETE', `/channels/${games}/messages/${gone.id as string}`);
    await call('PATCH', `/channels/${games}/messages/${board.id as string}`, { content: 'the board, one move later' });
    const app = (await call('GET', '/applications/@me')).id as string;
    await call('PUT', `/applications/${app}/commands`, [{ name: 'ping', description: 'Replies' }]);
    const last = await call('POST', `/channels/${games}/messages`, { content: 'posted last', nonce: 'n-1', enforce_nonce: true });
    // The answer is in: kill at once, with no chance to save on the way out.
    first.proc.kill('SIGKILL');
    await new Promise((resolve) => first.proc.once('exit', resolve));

    const second = await start();
    const again = new EmulatorClient(second.ready.url);
    const seen = (await again.messages('games')).messages;
    expect(seen.map((m) => m.content)).toEqual(['the board, one move later', 'posted last']);
    expect(seen.map((m) => m.id)).toEqual([board.id, last.id]);
    const attachment = seen[0]!.attachments[0]!;
    const bytes = Buffer.from(await (await fetch(`${second.ready.url}${new URL(attachment.url).pathname}`)).arrayBuffer());
    expect(bytes.toString()).toBe('png bytes');
    expect((await again.dms('alice')).messages.map((m) => m.id)).toEqual([dm.id]);
    // The bot, unsure whether its last post went through, sends it again with the same nonce: the same message comes back.
    const retried = await rest(second.ready)('POST', `/channels/${games}/messages`, { content: 'posted last', nonce: 'n-1', enforce_nonce: true });
    expect(retried.id).toBe(last.id);
    expect((await again.channelPermissions(general)).effective).not.toContain('ATTACH_FILES');
    expect((await again.state()).commands.map((c) => c.name)).toEqual(['ping']);
    second.proc.kill('SIGTERM');
    await new Promise((resolve) => second.proc.once('exit', resolve));
  });
});
