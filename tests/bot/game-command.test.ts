import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gameCommand, subcommand, userOption } from '../../src/bot/game-command.ts';
import type { GameModule } from '../../src/bot/game-module.ts';
import { nimModule } from '../fixtures/nim/index.ts';

const module = nimModule as GameModule;
const ran: unknown[] = [];

/** A game's own join (a variant and an opponent) and an extension of the shared `view` (a player), as Tellstones and Krellstones declare them. */
const command = gameCommand(module, {
  description: 'Nim with its own join',
  join: false,
  subcommands: [
    subcommand({
      name: 'join',
      description: 'Challenge with a variant.',
      options: (s) => s.addUserOption((o) => o.setName('opponent').setDescription('Who')).addStringOption((o) => o.setName('heap-size').setDescription('How big')),
      schema: { subcommand: z.literal('join'), opponent: userOption.optional(), heapSize: z.string().nullable() },
      run: async (_i, input) => void ran.push(input),
    }),
    subcommand({
      name: 'view',
      options: (s) => s.addUserOption((o) => o.setName('player').setDescription('Whose game')),
      schema: { subcommand: z.literal('view'), game: z.number().nullable(), player: userOption.nullable() },
      run: async (_i, input) => void ran.push(input),
    }),
  ],
});

/** The options of a slash command as discord.js hands them over: `sent` by name, a user unresolved when its value is a bare id. */
function interaction(sub: string, sent: Record<string, unknown>) {
  const user = (n: string) => (typeof sent[n] === 'object' && sent[n] !== null ? (sent[n] as object) : null);
  return {
    options: {
      getSubcommand: () => sub,
      get: (n: string) => (n in sent ? { name: n, value: sent[n] } : null),
      getUser: user,
      getString: (n: string) => (typeof sent[n] === 'string' ? sent[n] : null),
      getInteger: (n: string) => (typeof sent[n] === 'number' ? sent[n] : null),
      getNumber: () => null,
      getBoolean: () => null,
    },
  } as never;
}

describe('gameCommand for a game whose join and view differ', () => {
  it('registers the own join in place of the standard one and adds the extension’s options after the shared view’s', () => {
    const json = command.data.toJSON();
    const names = (json.options ?? []).map((o) => o.name);
    expect(names).toEqual(['join', 'forfeit', 'games', 'view', 'history', 'practice', 'help']);
    const join = json.options!.find((o) => o.name === 'join') as { description: string; options: { name: string }[] };
    expect(join.description).toBe('Challenge with a variant.');
    // A two-player game's join still gets the time per move.
    expect(join.options.map((o) => o.name)).toEqual(['opponent', 'heap-size', 'days-per-move']);
    const view = json.options!.find((o) => o.name === 'view') as { description: string; options: { name: string }[] };
    expect(view.description).toBe('Look at a game (anyone may watch).');
    expect(view.options.map((o) => o.name)).toEqual(['game', 'player']);
  });

  it('reads the opponent as the standard join does: absent is an open challenge, unresolved is refused', () => {
    const bob = { id: '2', username: 'bob', globalName: 'Bob', bot: false };
    expect(command.schema.safeParse(command.read(interaction('join', {}))).data).toEqual({ subcommand: 'join', heapSize: null });
    expect(command.schema.safeParse(command.read(interaction('join', { opponent: bob, 'heap-size': 'big' }))).data).toMatchObject({ opponent: { id: '2', bot: false }, heapSize: 'big' });
    expect(command.schema.safeParse(command.read(interaction('join', { opponent: '2' }))).success).toBe(false);
  });

  it('runs the extension of view with its own option', async () => {
    const bob = { id: '2', username: 'bob', globalName: 'Bob', bot: false };
    const input = command.schema.parse(command.read(interaction('view', { game: 5, player: bob })));
    await command.execute(interaction('view', {}), input, {} as never);
    expect(ran.at(-1)).toMatchObject({ subcommand: 'view', game: 5, player: { id: '2' } });
  });
});
