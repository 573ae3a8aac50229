import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import type { BotDeps } from '../src/bot/command.ts';
import { boardFor, playerNames } from '../src/bot/board.ts';
import { joinOrIntend } from '../src/bot/cycle-commands.ts';
import { mention } from '../src/bot/format.ts';
import { gameCommand, subcommand, userOption } from '../src/bot/game-command.ts';
import { gameIdSchema, gameOptionBuilder, resignConfirmation, runCommonSubcommand } from '../src/bot/game-commands.ts';
import type { GameModule } from '../src/bot/game-module.ts';
import { toDiscord } from '../src/bot/game-routes.ts';
import { EPHEMERAL, displayName, requireGuild, respondChoices } from '../src/bot/interaction-utils.ts';
import { openTableCommand, tableMessage } from '../src/bot/tables.ts';
import { LIMITS, PACES, STONE_KINDS } from '../src/games/krellstones/data.ts';
import type { KrellstonesView } from '../src/games/krellstones/engine/index.ts';
import { krellstones } from '../src/games/krellstones/index.ts';
import { checkHost, checkJoin, matsOf, ownTable, ownedStoneName, seatData, selectStone, setRules, sideboardAdd, stonesOf, unselectStone } from '../src/games/krellstones/lobby.ts';
import { stoneName, yellHeard } from '../src/games/krellstones/present.ts';
import { explainLateYell } from '../src/games/krellstones/late-yell.ts';
import { swapPanel } from '../src/games/krellstones/routes.ts';
import { runsCycles } from '../src/services/cycles.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame, inTransaction, listActiveGames, playMove, resolveOwnGame } from '../src/services/games.ts';
import { findOpenTable, joinTable, leaveTable, readySeat, type TableWithSeats } from '../src/services/tables.ts';

/**
 * `/krellstones`: the game (the collection is `/krellstone`). Before the start: host a table on
 * one of your mats (`start`), set its rules (`rules`, the host), `join` a host's table, choose the
 * stones you bring (`select`/`unselect`, or the menus of **Choose stones** on the table), your
 * `sideboard`, then `ready`. During the game: `yell` (Pup in the Hangar), `pace` (the host), `view`
 * anyone's game, `abandon`. Buttons and menus of the running game: src/games/krellstones/routes.ts.
 */
const module = krellstones as GameModule;
const KIND = module.kind;

const stoneOption = z.string().min(1).max(40);

const stoneArg = (o: import('@discordjs/builders').SlashCommandStringOption, what: string) => o.setName('stone').setDescription(what).setRequired(true).setAutocomplete(true).setMaxLength(40);

const start = subcommand({
  name: 'start',
  description: 'Host a game here on one of your mats; others join with /krellstones join host:@you.',
  options: (s) =>
    s
      .addStringOption((o) => o.setName('mat').setDescription('Which of your mats (default: your first)').setAutocomplete(true).setMaxLength(60))
      .addIntegerOption((o) => o.setName('rounds').setDescription('Rounds, 1-17 (default 5)').setMinValue(LIMITS.rounds.min).setMaxValue(LIMITS.rounds.max)),
  schema: { subcommand: z.literal('start'), mat: z.string().max(60).nullable(), rounds: z.number().int().min(LIMITS.rounds.min).max(LIMITS.rounds.max).nullable() },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    const { mat } = await checkHost(deps.ctx, guildId, interaction.user.id, input.mat);
    const options = { rounds: input.rounds ?? LIMITS.rounds.default };
    return openTableCommand(interaction, deps, module, options, LIMITS.players.max, { minSeats: LIMITS.players.min, hostData: { mat: mat.id, matName: mat.data.name } });
  },
});

const rules = subcommand({
  name: 'rules',
  description: 'The host, before the start: rounds, rerolls on/off, sideboard size, pace.',
  options: (s) =>
    s
      .addIntegerOption((o) => o.setName('rounds').setDescription('Rounds, 1-17').setMinValue(LIMITS.rounds.min).setMaxValue(LIMITS.rounds.max))
      .addBooleanOption((o) => o.setName('rerolls').setDescription('Allow rerolls (on by default)'))
      .addIntegerOption((o) => o.setName('sideboard').setDescription('Sideboard size 1-10, or 0 for none').setMinValue(0).setMaxValue(LIMITS.sideboard.max))
      .addStringOption((o) => o.setName('pace').setDescription('The pace').addChoices(...PACES.map((p) => ({ name: p, value: p })))),
  schema: {
    subcommand: z.literal('rules'),
    rounds: z.number().int().min(LIMITS.rounds.min).max(LIMITS.rounds.max).nullable(),
    rerolls: z.boolean().nullable(),
    sideboard: z.number().int().min(0).max(LIMITS.sideboard.max).nullable(),
    pace: z.enum(PACES).nullable(),
  },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    if ([input.rounds, input.rerolls, input.sideboard, input.pace].every((x) => x === null)) {
      throw new UserError('krellstones/no-rules', 'Give at least one rule to change: rounds, rerolls, sideboard or pace.');
    }
    const table = await setRules(deps.ctx, { guildId, userId: interaction.user.id, rounds: input.rounds, rerolls: input.rerolls, sideboard: input.sideboard === null ? null : input.sideboard === 0 ? 'off' : input.sideboard, pace: input.pace });
    const { rulesText } = await import('../src/games/krellstones/present.ts');
    await interaction.reply({ content: `📜 Table #${table.id} now plays: ${rulesText(table.options)}. Everyone confirms again with **Ready**.`, flags: EPHEMERAL });
  },
});

/** The join names a host (whose table the invoker takes a seat at), or in a Rest Phase up to three players to intend a game with. */
const join = subcommand({
  name: 'join',
  description: "Join a host's table (in a Rest Phase: your intent to play them, and up to two more).",
  options: (s) =>
    s
      .addUserOption((o) => o.setName('host').setDescription('The host (in a Rest Phase: a player you want to play)').setRequired(true))
      .addUserOption((o) => o.setName('player2').setDescription('Rest Phase only: another player for the same table'))
      .addUserOption((o) => o.setName('player3').setDescription('Rest Phase only: a third player for the same table'))
      .addStringOption((o) =>
        o
          .setName('mode')
          .setDescription('Rest Phase, several named: one table with all (together), or a game against any/each')
          .addChoices({ name: 'together', value: 'together' }, { name: 'any', value: 'any' }, { name: 'each', value: 'each' }),
      ),
  schema: {
    subcommand: z.literal('join'),
    host: userOption,
    player2: userOption.nullable(),
    player3: userOption.nullable(),
    mode: z.enum(['any', 'each', 'together']).nullable().default(null),
  },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    const more = [input.player2, input.player3].filter((u) => u !== null);
    // Several named: one table with all of them unless `mode` says otherwise.
    if (await runsCycles(deps.ctx, guildId)) return joinOrIntend(interaction, deps, module, [input.host, ...more], input.mode ?? (more.length ? 'together' : null));
    if (more.length || input.mode) throw new UserError('krellstones/join-one', 'Outside a Rest Phase, `join` takes just the `host` whose table you join.');
    if (input.host.id === interaction.user.id) throw new UserError('krellstones/join-self', 'That is you: host with `/krellstones start`, or name the host whose table you join.');
    const table = await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: input.host.id, hostOnly: true });
    if (!table) throw new UserError('krellstones/no-table', `${mention(input.host.id)} is not hosting a Krellstones table waiting for players. Ask them to \`/krellstones start\`, or host your own.`);
    if (table.seats.length >= table.seatCount) throw new UserError('krellstones/table-full', `${mention(input.host.id)}'s table is full (${table.seatCount} players).`);
    await checkJoin(deps.ctx, guildId, interaction.user.id, table.id);
    const r = await joinTable(deps.ctx, { tableId: table.id, guildId, guildName: interaction.guild?.name ?? '', user: { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot } });
    await interaction.reply({
      content: `🪑 ${mention(interaction.user.id)} joins ${mention(input.host.id)}'s Krellstones table #${r.table.id} (${r.table.seats.length} of ${r.table.seatCount}). Choose your stones with **Choose stones** on the table or \`/krellstones select\`, then **Ready**.`,
      allowedMentions: { users: [input.host.id] },
    });
  },
});

const select = subcommand({
  name: 'select',
  description: 'A stone to bring (before the start), to reroll, or to swap in from your sideboard.',
  options: (s) =>
    s
      .addStringOption((o) => stoneArg(o, 'One of your stones (number or alias)'))
      .addStringOption((o) => o.setName('replace').setDescription('Between rounds: which active stone it replaces (which Krell)').setAutocomplete(true).setMaxLength(40)),
  schema: { subcommand: z.literal('select'), stone: stoneOption, replace: stoneOption.nullable().default(null) },
  async run(interaction, input, deps) {
    const g = await runningChoice(interaction, deps);
    if (g) return selectInGame(interaction, deps, g, input.stone, input.replace);
    const r = await selectStone(deps.ctx, { guildId: requireGuild(interaction), userId: interaction.user.id, stone: input.stone });
    return lobbyReply(interaction, `✅ You bring your ${r.stone}`, r.table);
  },
});

const unselect = subcommand({
  name: 'unselect',
  description: 'Put back a stone you chose to bring, or to reroll.',
  options: (s) => s.addStringOption((o) => stoneArg(o, 'A stone you chose')),
  schema: { subcommand: z.literal('unselect'), stone: stoneOption },
  async run(interaction, input, deps) {
    const g = await runningChoice(interaction, deps);
    if (g) return unselectInGame(interaction, deps, g, input.stone);
    const r = await unselectStone(deps.ctx, { guildId: requireGuild(interaction), userId: interaction.user.id, stone: input.stone });
    return lobbyReply(interaction, `↩️ Your ${r.stone} is put back`, r.table);
  },
});

const ready = subcommand({
  name: 'ready',
  description: 'Ready: to start (the rest drawn at random from your stones), with your rerolls, or done swapping.',
  schema: { subcommand: z.literal('ready') },
  async run(interaction, _input, deps) {
    const g = await runningChoice(interaction, deps);
    if (g) {
      await playMove(deps.ctx, { gameId: g.gameId, userId: interaction.user.id, guildId: g.guildId, kind: KIND, move: { type: 'ready' } });
      const n = g.view.phase === 'rerolls' ? (g.view.seats[interaction.user.id]!.selection ?? []).length : 0;
      const note = g.view.phase === 'rerolls' ? (n ? `${n} stone${n === 1 ? '' : 's'} to reroll, secret until the rerolls` : 'you reroll nothing') : 'no more swaps this time';
      await interaction.reply({ content: `✅ Ready in game #${g.gameId}: ${note}.`, flags: EPHEMERAL });
      return;
    }
    return readyCommand(interaction, deps);
  },
});

const sideboard = subcommand({
  name: 'sideboard',
  description: 'Add a stone to your sideboard before the start, or view a sideboard.',
  options: (s) =>
    s
      .addStringOption((o) => o.setName('add').setDescription('A stone to add to your sideboard').setAutocomplete(true).setMaxLength(40))
      .addUserOption((o) => o.setName('player').setDescription("Whose sideboard to view (an opponent's only after the start)")),
  schema: { subcommand: z.literal('sideboard'), add: stoneOption.nullable(), player: userOption.nullable() },
  run: (interaction, input, deps) => sideboardCommand(interaction, input, deps),
});

const abandon = subcommand({
  name: 'abandon',
  description: 'Leave your table before the start, or forfeit your game (asks to confirm).',
  options: (s) => s.addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('abandon'), game: gameIdSchema },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    const table = input.game === null ? await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: interaction.user.id }) : null;
    if (table) {
      const after = await leaveTable(deps.ctx, { tableId: table.id, guildId, userId: interaction.user.id });
      await interaction.reply({ content: after.status === 'cancelled' ? `🚪 You closed your table #${table.id}: no game starts.` : `🚪 You left table #${table.id}.`, flags: EPHEMERAL });
      return;
    }
    const { gameId, snap } = await ownGame(interaction, deps, input.game);
    if (snap.game.status !== 'active') throw new UserError('game/over', `Game #${gameId} is already over.`);
    await interaction.reply(resignConfirmation(gameId, snap.game.version, snap.game.seats.length, !module.engine.out));
  },
});

const yell = subcommand({
  name: 'yell',
  description: 'Pup in the Hangar: yell for your Master (only KRELLSTONES! exactly counts).',
  options: (s) => s.addStringOption((o) => o.setName('text').setDescription('Your yell').setRequired(true).setMaxLength(200)).addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('yell'), text: z.string().min(1).max(200), game: gameIdSchema },
  async run(interaction, input, deps) {
    const { guildId, gameId } = await ownGame(interaction, deps, input.game);
    // Late: the refusal says when the window closed and how long it was open.
    await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'yell', text: input.text } }).catch(async (err: unknown) => {
      throw await explainLateYell(deps.ctx, gameId, guildId, interaction.user.id, err);
    });
    await interaction.reply({ content: yellHeard(interaction.user.id, gameId), allowedMentions: { parse: [] } });
  },
});

const pace = subcommand({
  name: 'pace',
  description: 'The host: change the pace (FAST, NORMAL, SLOW), before or during the game.',
  options: (s) =>
    s.addStringOption((o) => o.setName('pace').setDescription('The pace').setRequired(true).addChoices(...PACES.map((p) => ({ name: p, value: p })))).addIntegerOption(gameOptionBuilder),
  schema: { subcommand: z.literal('pace'), pace: z.enum(PACES), game: gameIdSchema },
  async run(interaction, input, deps) {
    const guildId = requireGuild(interaction);
    if (input.game === null) {
      const table = await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: interaction.user.id });
      if (table) {
        await setRules(deps.ctx, { guildId, userId: interaction.user.id, pace: input.pace });
        await interaction.reply({ content: `⏱️ Table #${table.id} will play at **${input.pace}** pace.`, flags: EPHEMERAL });
        return;
      }
    }
    const { gameId, snap } = await ownGame(interaction, deps, input.game);
    await playMove(deps.ctx, { gameId, userId: interaction.user.id, guildId, kind: KIND, move: { type: 'pace', pace: input.pace } });
    await interaction.reply({ content: `⏱️ Game #${gameId} now runs at **${input.pace}** pace (the steps already running keep their deadlines).`, flags: EPHEMERAL });
  },
});

/** The shared `view`, which also takes a player: their running game, or the table they sit at. */
const view = subcommand({
  name: 'view',
  options: (s) => s.addUserOption((o) => o.setName('player').setDescription("A player: their game (or the table they wait at)")),
  schema: { subcommand: z.literal('view'), game: gameIdSchema, player: userOption.nullable().default(null) },
  run: (interaction, input, deps) => viewCommand(interaction, input, deps),
});

/** The invoker's running Krellstones game (the option, or their only one), as a seated player. */
async function ownGame(interaction: ChatInputCommandInteraction, deps: BotDeps, game: number | null) {
  const guildId = requireGuild(interaction);
  const gameId = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND, gameId: game });
  const snap = await getGame(deps.ctx, gameId, guildId);
  if (snap.game.kind !== KIND) throw new UserError('game/wrong-kind', `Game #${gameId} is not a game of Krellstones.`);
  if (!snap.game.seats.some((s) => s.playerId === interaction.user.id && !s.autopilot)) {
    throw new UserError('game/not-participant', `You are not playing in game #${gameId}.`);
  }
  return { guildId, gameId, snap, view: snap.view(interaction.user.id) as KrellstonesView };
}

/** A short private answer after a lobby change (the table message is redrawn by the outbox). */
async function lobbyReply(interaction: ChatInputCommandInteraction, text: string, table: TableWithSeats): Promise<void> {
  const seat = table.seats.find((s) => s.playerId === interaction.user.id);
  const n = seat ? seatData(seat.data).stones.length : 0;
  await interaction.reply({ content: `${text} (table #${table.id}: ${n} of 6 stones chosen; **Ready** fills the rest at random).`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

/**
 * The invoker's game that waits for their choice now (rerolls, or swaps between rounds), when they
 * are at no table: then `select`, `unselect` and `ready` are the help file's in-game commands.
 */
async function runningChoice(interaction: ChatInputCommandInteraction | AutocompleteInteraction, deps: BotDeps) {
  const guildId = interaction.guildId;
  if (!guildId) return null;
  if (await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: interaction.user.id })) return null;
  const games = await listActiveGames(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND });
  for (const snap of games) {
    if (!snap.game.seats.some((s) => s.playerId === interaction.user.id && !s.autopilot)) continue;
    const view = snap.view(interaction.user.id) as KrellstonesView;
    if (view.seats[interaction.user.id]?.choice === 'pending') return { guildId, gameId: snap.game.id, view };
  }
  if (games.length) throw new UserError('krellstones/no-choice', `Game #${games[0]!.game.id} is not waiting for a choice of yours now: stones are selected while choosing rerolls, and swapped between rounds.`);
  return null;
}

type Running = NonNullable<Awaited<ReturnType<typeof runningChoice>>>;

/** A stone of the invoker's in the game (in play or on the sideboard), by number or alias. */
function gameStone(view: KrellstonesView, me: string, name: string, where: 'active' | 'sideboard') {
  const seat = view.seats[me]!;
  const list: Array<{ id: string; alias: string | null; type: keyof typeof STONE_KINDS }> = where === 'active' ? seat.stones : seat.sideboard;
  const raw = name.trim();
  const id = /^#?(\d{1,12})$/.exec(raw);
  const hit = id ? list.find((s) => s.id === id[1]) : list.find((s) => s.alias?.toLowerCase() === raw.toLowerCase());
  if (!hit) {
    throw new UserError('krellstones/no-such-stone', where === 'active' ? `You have no stone “${raw.slice(0, 40)}” in this game.` : `“${raw.slice(0, 40)}” is not on your sideboard.`);
  }
  return hit;
}

async function selectInGame(interaction: ChatInputCommandInteraction, deps: BotDeps, g: Running, stone: string, replace: string | null): Promise<void> {
  const me = interaction.user.id;
  const seat = g.view.seats[me]!;
  if (g.view.phase === 'rerolls') {
    const st = gameStone(g.view, me, stone, 'active');
    const selection = [...new Set([...(seat.selection ?? []), st.id])];
    const r = await playMove(deps.ctx, { gameId: g.gameId, userId: me, guildId: g.guildId, kind: KIND, move: { type: 'select', stones: selection } });
    const after = (r.after.view(me) as KrellstonesView).seats[me]!;
    const names = after.stones.filter((x) => (after.selection ?? []).includes(x.id)).map((x) => `${stoneName(x)} ${x.value}`);
    await interaction.reply({ content: `🎲 To reroll in game #${g.gameId} (only you see this): ${names.join(', ')}. Confirm with \`/krellstones ready\` or **Ready**.`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
    return;
  }
  // Between rounds: a sideboard stone for an active one of its type (which Krell: the option, or the prompt).
  const incoming = gameStone(g.view, me, stone, 'sideboard');
  const candidates = seat.stones.filter((x) => x.type === incoming.type);
  const outgoing = replace ? gameStone(g.view, me, replace, 'active') : candidates.length === 1 ? candidates[0]! : null;
  if (!outgoing) {
    await interaction.reply({ ...toDiscord(swapPanel(g.view, me, g.gameId, incoming.id)), flags: EPHEMERAL } as never);
    return;
  }
  await playMove(deps.ctx, { gameId: g.gameId, userId: me, guildId: g.guildId, kind: KIND, move: { type: 'swap', in: incoming.id, out: outgoing.id } });
  await interaction.reply({ content: `🔄 Swapped ${stoneName(incoming)} #${incoming.id} in for ${stoneName(outgoing)} #${outgoing.id} (game #${g.gameId}). More swaps, or \`/krellstones ready\`.`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

async function unselectInGame(interaction: ChatInputCommandInteraction, deps: BotDeps, g: Running, stone: string): Promise<void> {
  const me = interaction.user.id;
  if (g.view.phase !== 'rerolls') throw new UserError('krellstones/not-choosing', 'Only a reroll selection can be undone; a swap is made at once (swap back if you like).');
  const st = gameStone(g.view, me, stone, 'active');
  const current = g.view.seats[me]!.selection ?? [];
  if (!current.includes(st.id)) throw new UserError('krellstones/not-selected', `Your ${stoneName(st)} #${st.id} is not selected to reroll.`);
  await playMove(deps.ctx, { gameId: g.gameId, userId: me, guildId: g.guildId, kind: KIND, move: { type: 'select', stones: current.filter((x) => x !== st.id) } });
  await interaction.reply({ content: `↩️ Your ${stoneName(st)} #${st.id} will not be rerolled (game #${g.gameId}).`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

async function readyCommand(interaction: ChatInputCommandInteraction, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(interaction);
  const table = await ownTable(deps.ctx, guildId, interaction.user.id);
  const r = await readySeat(deps.ctx, { tableId: table.id, guildId, userId: interaction.user.id });
  if (r.game) {
    await interaction.reply({ content: `🎲 Everyone is ready: table #${r.table.id} is now Krellstones #${r.game.id}, and begins! The table's message is its board now.`, allowedMentions: { parse: [] } });
    return;
  }
  const mine = seatData(r.table.seats.find((s) => s.playerId === interaction.user.id)?.data);
  const stones = await inTransaction(deps.ctx, (tx) => stonesOf(tx, deps.ctx, guildId, interaction.user.id));
  const names = mine.stones.map((id) => stones.find((s) => String(s.id) === id)).filter((s) => s !== undefined).map(ownedStoneName);
  const waiting = r.table.seats.filter((s) => !s.ready).map((s) => mention(s.playerId));
  const more = r.table.seats.length < module.engine.minPlayers ? ` At least ${module.engine.minPlayers} players are needed: waiting for someone to join.` : waiting.length ? ` Waiting for ${waiting.join(', ')}.` : '';
  await interaction.reply({ content: `✅ Ready at table #${r.table.id}: you bring ${names.join(', ')}.${more}`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

async function sideboardCommand(interaction: ChatInputCommandInteraction, input: { add: string | null; player: { id: string } | null }, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(interaction);
  if (input.add) {
    const r = await sideboardAdd(deps.ctx, { guildId, userId: interaction.user.id, stone: input.add });
    return lobbyReply(interaction, `🧺 ${r.stone} is on your sideboard`, r.table);
  }
  const who = input.player?.id ?? interaction.user.id;
  // Before the start: only one's own sideboard.
  const table = await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: who });
  if (table) {
    if (who !== interaction.user.id) {
      throw new UserError('krellstones/sideboard-hidden', `${mention(who)}'s sideboard stays hidden until their game starts.`);
    }
    const d = seatData(table.seats.find((s) => s.playerId === who)?.data);
    const stones = await inTransaction(deps.ctx, (tx) => stonesOf(tx, deps.ctx, guildId, who));
    const list = d.sideboard.map((id) => stones.find((s) => String(s.id) === id)).filter((s) => s !== undefined);
    await interaction.reply({ content: `🧺 Your sideboard at table #${table.id}: ${list.length ? list.map((s) => `${ownedStoneName(s)} (${s.data.sides.map((x) => x.face?.value ?? x.printed).join('/')})`).join(' · ') : 'empty'}.`, flags: EPHEMERAL });
    return;
  }
  const games = await listActiveGames(deps.ctx, { guildId, userId: who, kind: KIND });
  const snap = games[0];
  if (!snap) throw new UserError('krellstones/no-game', `${who === interaction.user.id ? 'You are' : `${mention(who)} is`} not in a Krellstones game or at a table.`);
  const view = snap.view(null) as KrellstonesView;
  const seat = view.seats[who]!;
  const text = view.sideboard === null ? 'this game has no sideboard' : seat.sideboard.length ? seat.sideboard.map((s) => `${stoneName(s)} #${s.id} (${s.sides.map((x) => x.value).join('/')})`).join(' · ') : 'empty';
  await interaction.reply({ content: `🧺 ${mention(who)}'s sideboard in game #${snap.game.id}: ${text}.`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

async function viewCommand(interaction: ChatInputCommandInteraction, input: { game: number | null; player: { id: string } | null }, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(interaction);
  if (input.player) {
    const games = await listActiveGames(deps.ctx, { guildId, userId: input.player.id, kind: KIND });
    if (games[0]) {
      const snap = games[0];
      const payload = boardFor(deps.games, snap, await playerNames(deps.ctx, snap.game.seats.map((s) => s.playerId)));
      await interaction.reply({ ...toDiscord(payload), components: [], flags: EPHEMERAL } as never);
      return;
    }
    const table = await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: input.player.id });
    if (!table) throw new UserError('krellstones/no-game', `${mention(input.player.id)} is not in a Krellstones game or at a table.`);
    await interaction.reply({ ...toDiscord(tableMessage(deps.games, table)), components: [], flags: EPHEMERAL } as never);
    return;
  }
  if (input.game === null) {
    const table = await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: interaction.user.id });
    const games = await listActiveGames(deps.ctx, { guildId, userId: interaction.user.id, kind: KIND });
    if (table && games.length === 0) {
      await interaction.reply({ ...toDiscord(tableMessage(deps.games, table)), components: [], flags: EPHEMERAL } as never);
      return;
    }
  }
  return runCommonSubcommand(interaction, { subcommand: 'view', game: input.game }, deps, module);
}

/** Suggestions: your stones (by number or alias, for select, unselect and the sideboard), your mats, games. */
async function autocomplete(interaction: AutocompleteInteraction, deps: BotDeps): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const sub = interaction.options.getSubcommand(false);
  const guildId = interaction.guildId;
  if (!guildId) return respondChoices(interaction, []);
  const typed = String(focused.value).toLowerCase().replace(/^#/, '');
  if (focused.name === 'mat') {
    const mats = await inTransaction(deps.ctx, (tx) => matsOf(tx, deps.ctx, guildId, interaction.user.id));
    return respondChoices(interaction, mats.map((m) => ({ name: `${m.data.name} (#${m.id})`, value: String(m.id) })).filter((c) => c.name.toLowerCase().includes(typed)));
  }
  if (sub === 'select' || sub === 'unselect') {
    const g = await runningChoice(interaction, deps).catch(() => null);
    if (g) {
      const seat = g.view.seats[interaction.user.id]!;
      const label = (x: { id: string; alias: string | null; type: keyof typeof STONE_KINDS }, extra: string) => ({ name: `${stoneName(x)} #${x.id}${extra}`.slice(0, 100), value: x.alias ?? x.id });
      let list: Array<{ name: string; value: string }> = [];
      if (g.view.phase === 'rerolls') {
        const chosen = seat.selection ?? [];
        list = seat.stones.filter((x) => x.status === 'in' && (sub === 'unselect') === chosen.includes(x.id)).map((x) => label(x, ` showing ${x.value}`));
      } else if (focused.name === 'stone') list = seat.sideboard.map((x) => label(x, ` (${x.sides.map((y) => y.value).join('/')})`));
      else {
        const incoming = seat.sideboard.find((x) => x.id === interaction.options.getString('stone')?.replace(/^#/, '') || x.alias === interaction.options.getString('stone'));
        list = seat.stones.filter((x) => !incoming || x.type === incoming.type).map((x) => label(x, x.value === null ? '' : ` (${x.status === 'in' ? `showing ${x.value}` : x.status})`));
      }
      return respondChoices(interaction, list.filter((c) => c.name.toLowerCase().includes(typed)));
    }
  }
  if (focused.name === 'stone' || focused.name === 'add') {
    const stones = await inTransaction(deps.ctx, (tx) => stonesOf(tx, deps.ctx, guildId, interaction.user.id));
    const table = await findOpenTable(deps.ctx, { guildId, kind: KIND, playerId: interaction.user.id });
    const d = seatData(table?.seats.find((s) => s.playerId === interaction.user.id)?.data);
    const chosen = new Set([...d.stones, ...d.sideboard]);
    const list = stones.filter((s) => (sub === 'unselect' ? chosen.has(String(s.id)) : s.lockedByGameId === null && !chosen.has(String(s.id))));
    const choices = list.map((s) => ({
      name: `${ownedStoneName(s)}: ${s.data.sides.map((x) => x.face?.value ?? x.printed).join('/')}`.slice(0, 100),
      value: s.data.alias ?? String(s.id),
    }));
    return respondChoices(interaction, choices.filter((c) => c.name.toLowerCase().includes(typed)));
  }
  return respondChoices(interaction, []);
}

export default gameCommand(module, {
  description: 'Play Krellstones: bring your own stones, roll, reroll in secret, and yell in time.',
  join: false,
  subcommands: [start, rules, join, select, unselect, ready, sideboard, abandon, yell, pace, view],
  autocomplete,
});
