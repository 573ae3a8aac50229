import { ButtonStyle, ComponentType, type MessageComponentInteraction } from 'discord.js';
import type { TellstonesMove, TellstonesMoveType, TellstonesSymbol, TellstonesView } from '../../games/tellstones/engine/index.ts';
import { UserError } from '../../services/errors.ts';
import { getGame, playMove, type GameSnapshot, type MoveResult } from '../../services/games.ts';
import type { BotDeps } from '../command.ts';
import { answerMove, type ComponentHandlers } from '../components.ts';
import { customId } from '../custom-id.ts';
import { mention } from '../format.ts';
import { EPHEMERAL } from '../interaction-utils.ts';
import { knowPayload, SYMBOL_EMOJI, SYMBOL_NAME, positionPair, stoneOptions, symbolRows, symbolText, where } from './tellstones.ts';

/**
 * Tellstones' buttons and menus. The board carries one button per action; a multi-step action
 * opens an ephemeral menu for the clicking player only (Place: stone, then end; Swap: two stones;
 * Peek: 1–3 stones, or hand them to the partner; Challenge: a stone; proof: stone on the board,
 * then symbol). Every step carries the game id and the board version it was shown at, and the
 * move itself goes through playMove with `expectedVersion`, so a stale or doubled click is
 * refused by the service. Rules stay in the engine: these handlers only translate clicks into
 * moves (and refuse early, with the engine's words, when a menu would be pointless).
 */

type Ix = MessageComponentInteraction;

interface Loaded extends GameSnapshot {
  view: TellstonesView;
}

/** Loads the game for the clicker and checks seat, status and version, before showing a menu. */
async function load(i: Ix, deps: BotDeps, gameId: number, version: number | null): Promise<Loaded> {
  const snap = await getGame(deps.ctx, gameId, i.guildId);
  if (snap.game.kind !== 'tellstones') throw new UserError('input/wrong-game', `Game #${gameId} is not a game of Tellstones.`);
  if (!snap.game.seats.some((s) => s.playerId === i.user.id)) {
    throw new UserError('game/not-participant', `You are not playing in game #${gameId}. Start your own with \`/tellstones\`.`);
  }
  if (snap.game.status !== 'active') throw new UserError('game/over', `Game #${gameId} is already over.`);
  if (version !== null && version !== snap.game.version) {
    throw new UserError('game/stale', 'That button belongs to an older board: the game has moved on. Use the buttons on the current board.');
  }
  return { ...snap, view: snap.engine.view(snap.state, i.user.id) as TellstonesView };
}

/** Refuses a menu the clicker cannot use now, saying why and what to do. */
function requireLegal(i: Ix, l: Loaded, type: TellstonesMoveType, what: string): void {
  const v = l.view;
  if (v.legal.includes(type)) return;
  const waited = v.awaiting[0];
  if (waited !== undefined && !v.awaiting.includes(i.user.id)) {
    throw new UserError('tellstones/not-your-turn', `It is not your turn: the game waits for ${mention(waited)}.`);
  }
  throw new UserError(
    'tellstones/not-legal',
    `You cannot ${what} now: ${v.pending ? `the ${v.pending.kind} must be answered first` : 'no stone on the line allows it'}.`,
  );
}

const move = (i: Ix, deps: BotDeps, gameId: number, version: number, m: TellstonesMove, notify?: string[]): Promise<MoveResult> =>
  playMove(deps.ctx, { gameId, userId: i.user.id, guildId: i.guildId, move: m, expectedVersion: version, ...(notify ? { notify } : {}) });

/** Ends an ephemeral step: the menu becomes a note (the board is refreshed by the outbox). */
async function done(i: Ix, note: string): Promise<void> {
  await i.update({ content: note.slice(0, 2000), components: [], allowedMentions: { parse: [] } });
}

/** `line:position` from a select value (checked: the service re-checks it through the engine). */
function stone(value: string | undefined): { line: 0 | 1; position: number } {
  const m = /^([01]):([0-6])$/.exec(value ?? '');
  if (!m) throw new UserError('input/bad-choice', 'That choice is not one of the menu’s. Open the menu again from the board.');
  return { line: Number(m[1]) as 0 | 1, position: Number(m[2]) };
}

const values = (i: Ix): string[] => (i.isStringSelectMenu() ? i.values : []);
const lineOf = (v: TellstonesView, line: 0 | 1) => (v.lines.length > 1 ? { line } : {});
const select = (custom_id: string, placeholder: string, options: ReturnType<typeof stoneOptions>, min = 1, max = 1) => ({
  type: ComponentType.ActionRow,
  components: [{ type: ComponentType.StringSelect, custom_id, placeholder, options: options.slice(0, 25), min_values: min, max_values: Math.min(max, options.length) }],
});

export const tellstonesHandlers: ComponentHandlers<
  | 'ts:act'
  | 'ts:boast'
  | 'ts:know'
  | 'ts:pl'
  | 'ts:place'
  | 'ts:hide'
  | 'ts:swap'
  | 'ts:peek'
  | 'ts:chal'
  | 'ts:ans'
  | 'ts:boa'
  | 'ts:prvp'
  | 'ts:prv'
> = {
  async 'ts:act'(i, [g, ver, action], deps) {
    const l = await load(i, deps, g, ver);
    const words = { place: 'place a stone', hide: 'hide a stone', swap: 'swap stones', peek: 'peek', challenge: 'challenge' } as const;
    requireLegal(i, l, action, words[action]);
    const v = l.view;
    switch (action) {
      case 'place': {
        const options = v.lines.flatMap((line) =>
          line.stones.length >= 7
            ? []
            : line.pool.map((s) => ({ label: `${v.lines.length > 1 ? `Line ${line.line + 1}: ` : ''}${SYMBOL_NAME[s]}`, value: `${line.line}:${s}`, emoji: { name: SYMBOL_EMOJI[s] } })),
        );
        await i.reply({ content: '➕ **Place**: which stone from the pool?', components: [select(customId('ts:pl', g, ver), 'Pick a stone', options)], flags: EPHEMERAL });
        return;
      }
      case 'hide':
        await i.reply({ content: '🙈 **Hide**: which face-up stone?', components: [select(customId('ts:hide', g, ver), 'Pick a face-up stone', stoneOptions(v, true))], flags: EPHEMERAL });
        return;
      case 'swap': {
        const options = [...stoneOptions(v, true), ...stoneOptions(v, false)].sort((a, b) => a.value.localeCompare(b.value));
        await i.reply({ content: '🔀 **Swap**: pick two stones of one line.', components: [select(customId('ts:swap', g, ver), 'Pick two stones', options, 2, 2)], flags: EPHEMERAL });
        return;
      }
      case 'peek': {
        const limit = v.peekLimit ?? 1;
        const options = stoneOptions(v, false);
        const rows = [select(customId('ts:peek', g, ver, 0), `Peek yourself (up to ${limit})`, options, 1, limit)];
        if (v.partner) rows.push(select(customId('ts:peek', g, ver, 1), `Or hand the peek to your partner (up to ${limit})`, options, 1, limit));
        await i.reply({
          content: `👀 **Peek** at ${limit === 3 ? 'up to 3 face-down stones of one line' : '1 face-down stone'}. Only ${v.partner ? 'the one who looks' : 'you'} will see ${limit === 3 ? 'them' : 'it'}.`,
          components: rows,
          flags: EPHEMERAL,
        });
        return;
      }
      case 'challenge':
        await i.reply({
          content: `⚔️ **Challenge**: which face-down stone must ${mention(nextOf(v, i.user.id))} name?`,
          components: [select(customId('ts:chal', g, ver), 'Pick a face-down stone', stoneOptions(v, false))],
          flags: EPHEMERAL,
          allowedMentions: { parse: [] },
        });
        return;
    }
  },

  async 'ts:pl'(i, [g, ver], deps) {
    const l = await load(i, deps, g, ver);
    requireLegal(i, l, 'place', 'place a stone');
    const m = /^([01]):([a-z]+)$/.exec(values(i)[0] ?? '');
    const symbol = m?.[2] as TellstonesSymbol | undefined;
    if (!m || !symbol || !(symbol in SYMBOL_NAME)) throw new UserError('input/bad-choice', 'That choice is not one of the menu’s. Open the menu again from the board.');
    const line = Number(m[1]) as 0 | 1;
    await i.update({
      content: `➕ Place ${symbolText(symbol)} at which end${l.view.lines.length > 1 ? ` of line ${line + 1}` : ''}?`,
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('ts:place', g, ver, line, symbol, 'left'), label: 'Left end', emoji: { name: '⬅️' } },
            { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('ts:place', g, ver, line, symbol, 'right'), label: 'Right end', emoji: { name: '➡️' } },
          ],
        },
      ],
    });
  },

  async 'ts:place'(i, [g, ver, line, symbol, end], deps) {
    const r = await move(i, deps, g, ver, { type: 'place', symbol, end, ...(line === 1 ? { line } : {}) });
    await done(i, `✅ You placed ${symbolText(symbol)} at the ${end} end${(r.state as { lines: unknown[] }).lines.length > 1 ? ` of line ${line + 1}` : ''}.`);
  },

  async 'ts:hide'(i, [g, ver], deps) {
    const l = await load(i, deps, g, ver);
    const s = stone(values(i)[0]);
    await move(i, deps, g, ver, { type: 'hide', position: s.position, ...lineOf(l.view, s.line) });
    await done(i, `✅ You hid the stone at ${where(l.view, s.line, s.position)}.`);
  },

  async 'ts:swap'(i, [g, ver], deps) {
    const l = await load(i, deps, g, ver);
    const [a, b] = values(i).map(stone);
    if (!a || !b) throw new UserError('tellstones/swap-two', 'Pick two stones to swap.');
    if (a.line !== b.line) throw new UserError('tellstones/swap-one-line', 'Both stones of a swap must be on the same line. Open Swap again and pick two of one line.');
    await move(i, deps, g, ver, { type: 'swap', a: a.position, b: b.position, ...lineOf(l.view, a.line) });
    await done(i, `✅ You swapped the stones at ${positionPair(l.view, a.line, a.position, b.position)}.`);
  },

  async 'ts:peek'(i, [g, ver, share], deps) {
    const l = await load(i, deps, g, ver);
    const picked = values(i).map(stone);
    const line = picked[0]?.line ?? 0;
    if (picked.some((p) => p.line !== line)) throw new UserError('tellstones/peek-one-line', 'A peek looks within one line. Open Peek again and pick stones of one line.');
    const partner = share === 1 ? l.view.partner : null;
    if (share === 1 && !partner) throw new UserError('tellstones/no-partner', 'Only King’s Circle has partners to hand a peek to.');
    const positions = picked.map((p) => p.position);
    const r = await move(
      i,
      deps,
      g,
      ver,
      { type: 'peek', positions, ...lineOf(l.view, line), ...(partner ? { shareWith: partner } : {}) },
      partner ? [partner] : undefined,
    );
    if (partner) {
      await done(i, `✅ You handed a peek at ${positions.map((p) => where(l.view, line, p)).join(', ')} to ${mention(partner)}; only they will see it (with **What do I know?**).`);
      return;
    }
    // The peeker's own view after the move: what they just learned, shown only to them.
    const after = r.engine.view(r.state, i.user.id) as TellstonesView;
    const seen = after.known.filter((k) => k.line === line && positions.includes(k.position));
    await done(
      i,
      `👀 Only you can see this:\n${seen.map((k) => `• ${where(after, k.line, k.position)}: **${symbolText(k.symbol)}**`).join('\n')}\nForgot it later? Click **What do I know?** on the board.`,
    );
  },

  async 'ts:chal'(i, [g, ver], deps) {
    const l = await load(i, deps, g, ver);
    const s = stone(values(i)[0]);
    await move(i, deps, g, ver, { type: 'challenge', position: s.position, ...lineOf(l.view, s.line) });
    await done(i, `✅ You challenged ${mention(nextOf(l.view, i.user.id))} to name the stone at ${where(l.view, s.line, s.position)}.`);
  },

  async 'ts:boast'(i, [g, ver], deps) {
    const r = await move(i, deps, g, ver, { type: 'boast' });
    await answerMove(i, deps, r, 'You boasted.');
  },

  async 'ts:ans'(i, [g, ver, symbol], deps) {
    const r = await move(i, deps, g, ver, { type: 'answer-challenge', symbol });
    await answerMove(i, deps, r, `You named ${symbolText(symbol)}.`);
  },

  async 'ts:boa'(i, [g, ver, answer], deps) {
    const r = await move(i, deps, g, ver, { type: 'answer-boast', answer });
    await answerMove(i, deps, r, `You answered: ${answer}.`);
  },

  async 'ts:prvp'(i, [g, ver], deps) {
    const l = await load(i, deps, g, ver);
    const p = l.view.pending;
    if (p?.kind !== 'proof') throw new UserError('tellstones/no-proof', 'No boast is being proven now.');
    if (p.prover !== i.user.id) throw new UserError('tellstones/not-prover', `It is ${mention(p.prover)}’s turn to name a stone of the boast.`);
    const s = stone(values(i)[0]);
    await i.reply({
      content: `📣 The stone at ${where(l.view, s.line, s.position)} is…? (a wrong name loses the game)`,
      components: symbolRows((sym) => customId('ts:prv', g, ver, s.line, s.position, sym)),
      flags: EPHEMERAL,
    });
  },

  async 'ts:prv'(i, [g, ver, line, position, symbol], deps) {
    const l = await load(i, deps, g, ver);
    await move(i, deps, g, ver, { type: 'prove', position, symbol, ...lineOf(l.view, line as 0 | 1) });
    await done(i, `✅ You named ${where(l.view, line, position)} as ${symbolText(symbol)}: see the board.`);
  },

  async 'ts:know'(i, [g], deps) {
    const snap = await getGame(deps.ctx, g, i.guildId);
    if (!snap.game.seats.some((s) => s.playerId === i.user.id)) {
      throw new UserError('game/not-participant', `You are not playing in game #${g}, so you know no hidden stone of it.`);
    }
    const view = snap.engine.view(snap.state, i.user.id) as TellstonesView;
    await i.reply({ ...knowPayload(view, g), flags: EPHEMERAL } as never);
  },
};

/** The seat after `player` clockwise (who answers their challenge). */
function nextOf(v: TellstonesView, player: string): string {
  const seat = v.seats.findIndex((s) => s.player === player);
  return v.seats[(seat + 1) % v.seats.length]?.player ?? player;
}
