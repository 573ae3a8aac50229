import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { silentLogger } from '@stonehall/discord-emulator';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandPayloads } from '../../commands/index.ts';
import { startDemoEmulator, type DemoEmulator } from '../../src/dev/demo-server.ts';
import { ROOT } from '../architecture/imports.ts';

/**
 * `npm run deploy-commands` as documented, run as its own process: with DISCORD_API_BASE it
 * registers against that address (the emulator, or a recording proxy in front of Discord), never
 * silently against discord.com (issue 16, defect 4).
 */
const run = promisify(execFile);
let emulator: DemoEmulator;
beforeAll(async () => {
  emulator = await startDemoEmulator({ logger: silentLogger });
});
afterAll(async () => {
  await emulator?.close();
});

describe('npm run deploy-commands', () => {
  it('registers every command at DISCORD_API_BASE, in the guild DISCORD_GUILD_ID names', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DISCORD_TOKEN: emulator.botToken,
      DISCORD_APPLICATION_ID: emulator.applicationId,
      DISCORD_GUILD_ID: emulator.guildId,
      DISCORD_API_BASE: emulator.apiBase,
    };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join('scripts', 'deploy-commands.ts')], { cwd: ROOT, env, timeout: 60_000 });
    const expected = commandPayloads().map((c) => c.name).sort();
    expect(stdout).toContain(`registered ${expected.length} commands in guild ${emulator.guildId}`);
    // The invite a server owner opens: both scopes and exactly the permissions Stonehall needs (issue 22).
    const bits = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.AttachFiles;
    expect(stdout).toContain(`https://discord.com/oauth2/authorize?client_id=${emulator.applicationId}&scope=bot+applications.commands&permissions=${bits}`);
    expect(stdout).toContain('permissions: View Channel, Send Messages, Embed Links, Attach Files');
    const registered = emulator.state.commandsFor(emulator.guildId).map((c) => c.name).sort();
    expect(registered).toEqual(expected);
  });
});
