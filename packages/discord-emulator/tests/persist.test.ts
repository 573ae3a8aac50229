import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Routes, type TextChannel } from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import { OffsetClock, Permission } from '../src/index.ts';
import { startHarness } from './helpers.ts';

/**
 * With a data folder, an emulator that restarts remembers what happened, as Discord does: a bot
 * that restarts with it edits its old board instead of meeting "10008 Unknown Message", and a
 * deadline that read "in a day" still does.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'emulator-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an emulator with a data folder', () => {
  it('keeps messages, DM channels, threads, commands, files, DM settings and the clock offset across a restart', async () => {
    const first = await startHarness({ dataDir: dir, clock: new OffsetClock() });
    const { emulator } = first;
    const channel = (await first.client.channels.fetch(emulator.channels.games)) as TextChannel;
    const board = await channel.send({ content: 'the board', files: [{ attachment: Buffer.from('png bytes'), name: 'board.png' }] });
    await first.emu.sendMessage({ user: 'alice', channel: 'games', content: 'my move' });
    const thread = await board.startThread({ name: 'table talk' });
    await thread.send('in the thread');
    const alice = await first.client.users.fetch(emulator.users.alice);
    const dm = await alice.send('your turn');
    const [command] = [...(await first.client.application!.commands.set([{ name: 'ping', description: 'Replies' }], emulator.guildId)).values()];
    await first.emu.setDmsOpen('bob', false);
    await first.emu.advanceClock(24 * 3600_000);
    const offsetBefore = (await first.emu.clock()).offsetMs;
    await first.stop();

    const again = await startHarness({ dataDir: dir, clock: new OffsetClock() });
    try {
      const clock = await again.emu.clock();
      expect(clock.offsetMs).toBeGreaterThanOrEqual(offsetBefore);
      expect(again.emulator.clock.offset).toBeGreaterThanOrEqual(24 * 3600_000);

      const seen = await again.emu.messages('games', 'alice');
      expect(seen.messages.map((m) => m.content)).toEqual(['the board', 'my move']);
      // The bot, restarted too, edits its old board (the defect was 10008 Unknown Message).
      const ch = (await again.client.channels.fetch(again.emulator.channels.games)) as TextChannel;
      const old = await ch.messages.fetch(board.id);
      const edited = await old.edit('the board, one move later');
      expect(edited.content).toBe('the board, one move later');
      const file = await fetch(board.attachments.first()!.url.replace(emulator.url, again.emulator.url));
      expect(file.status).toBe(200);
      expect(await file.text()).toBe('png bytes');

      // The thread, with its message.
      expect((await again.emu.messages(thread.id, 'alice')).messages.map((m) => m.content)).toEqual(['in the thread']);
      // The same DM channel, with its history.
      const reopened = (await again.client.rest.post(Routes.userChannels(), { body: { recipient_id: again.emulator.users.alice } })) as { id: string };
      expect(reopened.id).toBe(dm.channelId);
      expect((await again.emu.messages('dm', 'alice')).messages.map((m) => m.content)).toEqual(['your turn']);

      const commands = await again.client.application!.commands.fetch({ guildId: again.emulator.guildId });
      expect([...commands.keys()]).toEqual([command!.id]);
      expect((await again.emu.state()).users.find((u) => u.alias === 'bob')?.dms_open).toBe(false);

      // New ids come after the old ones (Discord's ids only grow).
      const next = await ch.send('after the restart');
      expect(BigInt(next.id) > BigInt(board.id)).toBe(true);
    } finally {
      await again.stop();
    }
  });

  it('keeps permission changes and deleted channels made at run time; the definition gives the rest', async () => {
    const settings = mkdtempSync(path.join(tmpdir(), 'emulator-settings-'));
    try {
      const first = await startHarness({ dataDir: settings });
      await first.emu.setOverwrite({ channel: 'games', user: 'bot', deny: ['ATTACH_FILES'] });
      await first.emu.setRolePermissions({ role: 'EmulatorBot', permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES'] });
      await first.emu.deleteChannel({ channel: 'leaderboard' });
      await first.stop();

      const again = await startHarness({ dataDir: settings });
      try {
        const games = await again.emu.channelPermissions('games');
        expect(games.overwrites).toEqual([{ id: again.emulator.botUserId, type: 1, name: 'EmulatorBot', allow: [], deny: ['ATTACH_FILES'] }]);
        const botRole = (await again.emu.state()).guild.roles.find((r) => r.name === 'EmulatorBot')!;
        expect(BigInt(botRole.permissions)).toBe(Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES);
        expect((await again.emu.state()).channels.map((c) => c.name)).not.toContain('leaderboard');
        expect(again.client.channels.cache.has(again.emulator.channels.leaderboard)).toBe(false);
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(settings, { recursive: true, force: true });
      }
    });

  it('keeps an uploaded file in the folder, not in memory: once saved, it is served from there', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'emulator-files-'));
    const h = await startHarness({ dataDir: own, clock: new OffsetClock() });
    try {
      const channel = (await h.client.channels.fetch(h.emulator.channels.games)) as TextChannel;
      const sent = await channel.send({ content: 'a board', files: [{ attachment: Buffer.from('first picture'), name: 'board.png' }] });
      const a = sent.attachments.first()!;
      const onDisk = path.join(own, 'files', a.id);
      await h.emu.waitFor(async () => existsSync(onDisk), { what: 'the file saved in the data folder' });
      // What is served is what the folder holds (a copy kept in memory would still say "first picture").
      writeFileSync(onDisk, 'the folder\'s copy');
      expect(await (await fetch(a.url)).text()).toBe('the folder\'s copy');
    } finally {
      await h.stop();
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('without a data folder, starts empty every time', async () => {
    const a = await startHarness();
    await a.emu.sendMessage({ user: 'alice', channel: 'games', content: 'hello' });
    await a.stop();
    const b = await startHarness();
    try {
      expect((await b.emu.messages('games', 'alice')).messages).toEqual([]);
    } finally {
      await b.stop();
    }
  });
});
