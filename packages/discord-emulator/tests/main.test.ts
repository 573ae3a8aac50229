import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EmulatorClient } from '../src/client.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

/** The standalone emulator as another process would start it: its own server definition, limits on, ids on one JSON line. */
describe('the standalone emulator (src/main.ts)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'emu-main-'));
  const file = path.join(dir, 'server.json');
  writeFileSync(
    file,
    JSON.stringify({
      bot: { username: 'Benchbot' },
      users: [
        { alias: 'p0', username: 'p0' },
        { alias: 'p1', username: 'p1' },
      ],
      guilds: [{ name: 'Bench', owner: 'p0', channels: [{ name: 'announcements' }, { name: 'games-1' }, { name: 'games-2' }] }],
    }),
  );
  const proc = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, EMULATOR_PORT: '0', EMULATOR_SERVER_FILE: file, EMULATOR_READY_JSON: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  afterAll(() => {
    proc.kill('SIGTERM');
  });

  it('serves the given server, announces itself on one JSON line and enforces Discord\'s limits', async () => {
    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let buf = '';
      proc.stdout!.on('data', (c: Buffer) => {
        buf += c.toString();
        const line = buf.split('\n').find((l) => l.startsWith('{'));
        if (line && buf.includes('\n')) resolve(JSON.parse(line) as Record<string, unknown>);
      });
      proc.once('exit', (code) => reject(new Error(`emulator exited (${code})`)));
    });
    expect(ready).toMatchObject({ ready: true, pid: proc.pid });
    const users = ready.users as Record<string, string>;
    expect(Object.keys(users)).toEqual(['p0', 'p1']);
    const guild = (ready.guilds as Array<{ name: string; channels: Record<string, string> }>)[0]!;
    expect(guild.name).toBe('Bench');
    expect(Object.keys(guild.channels)).toEqual(['announcements', 'games-1', 'games-2']);
    const post = () =>
      fetch(`${ready.apiBase as string}/v10/channels/${guild.channels['games-1']}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${ready.botToken as string}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'board' }),
      });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await post()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]); // 5 per 5 s per channel, Discord's figure
    const stats = await new EmulatorClient(ready.url as string).restStats();
    expect(stats.routes['POST /channels/:channelId/messages']).toMatchObject({ requests: 6, ok: 5, limited: 1 });
    expect(stats.rateLimited).toEqual({ global: 0, route: 1 });
  });
});
