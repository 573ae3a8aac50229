import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBoard } from '../../src/bot/board.ts';
import { gameNeeds, invitePermissions, inviteUrl, missingNeeds, missingText } from '../../src/bot/permissions.ts';
import { games } from '../../src/games/index.ts';
import { claimStarterKit } from '../../src/games/krellstones/inventory.ts';
import { startPractice } from '../../src/services/games.ts';
import { testContext } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * What each game declares its channel needs (GameModule.channelPermissions) is what its board
 * actually sends: a board with embeds needs Embed Links, a board with a picture Attach Files, and a
 * game asks for nothing its board does not use (issue 22).
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 2 });
});
afterAll(async () => {
  await db?.drop();
});

describe('channel permissions', () => {
  it('each game declares exactly what its board needs beyond seeing the channel and posting there', async () => {
    const ctx = testContext(db);
    for (const [i, module] of games.all.entries()) {
      const player = { id: String(1000 + i), name: `P${i}` };
      // Krellstones is played with one's own stones: the free starter kit first.
      if (module.kind === 'krellstones') await claimStarterKit(ctx, { guildId: '900', player });
      const game = await startPractice(ctx, { guildId: '900', channelId: '901', kind: module.kind, player, bots: module.engine.minPlayers - 1 });
      const { payload } = await renderBoard(ctx, games, game.id);
      const declared = module.channelPermissions.map((n) => n.permission).sort();
      const used = [...(payload.embeds?.length ? ['EmbedLinks'] : []), ...(payload.files?.length ? ['AttachFiles'] : [])].sort();
      expect(declared, module.kind).toEqual(used);
      expect(gameNeeds(module).map((n) => n.permission), module.kind).toEqual(['ViewChannel', 'SendMessages', ...declared]);
    }
  });

  it('names what is missing, where, and what a moderator must allow', () => {
    const crystallia = games.require('crystallia');
    const perms = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
    const missing = missingNeeds(perms, gameNeeds(crystallia));
    expect(missing.map((n) => n.permission)).toEqual(['AttachFiles']);
    expect(missingText('42', missing, 'Stonehall')).toBe(
      "I can't attach files in <#42>, and Crystallia's board is a picture: ask a moderator to allow **Attach Files** for Stonehall there (channel settings → Permissions).",
    );
    const both = missingNeeds(PermissionFlagsBits.ViewChannel, gameNeeds(crystallia));
    expect(missingText('42', both, 'Stonehall')).toMatch(/^I can't post messages or attach files in <#42> \(Send Messages: .*; Attach Files: Crystallia's board is a picture\): ask a moderator to allow \*\*Send Messages\*\* and \*\*Attach Files\*\* for Stonehall there/);
  });

  it('invites the bot with exactly View Channel, Send Messages, Embed Links and Attach Files, and both scopes', () => {
    const bits = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.AttachFiles;
    expect(invitePermissions(games)).toBe(bits);
    const url = new URL(inviteUrl('123', games));
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe('123');
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(url.searchParams.get('permissions')).toBe(bits.toString());
  });
});
