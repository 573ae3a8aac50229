import { ButtonStyle, ComponentType } from 'discord.js';
import { mention } from '../../bot/format.ts';
import { directRoute, type RouteContext, type RouteDef } from '../../bot/game-module.ts';
import { UserError } from '../../services/errors.ts';
import type { TellstonesMove, TellstonesMoveType, TellstonesSymbol, TellstonesView } from './engine/index.ts';
import { knowPayload, SYMBOL_EMOJI, SYMBOL_NAME, positionPair, stoneOptions, symbolRows, symbolText, where } from './present.ts';

/**
 * Tellstones' buttons and menus. The board carries one button per action; a multi-step action
 * opens an ephemeral menu for the clicking player only (Place: stone, then end; Swap: two stones
 * of a line; Peek: 1-3 stones of a line, or hand them to the partner; Challenge: a stone; proof:
 * stone on the board, then symbol). Every step carries the game id and the board version it was
 * shown at, the platform checks seat, game and version before these run, and the move itself is
 * checked by the engine: these handlers only translate clicks into moves, and offer in each menu
 * only what the rules allow (a menu per line, so a swap or a peek never mixes lines).
 */

type Ctx = RouteContext<TellstonesView, TellstonesMove>;
type Route = RouteDef<TellstonesView, TellstonesMove>;

/** Refuses a menu the clicker cannot use now, saying why and what to do. */
function requireLegal(ctx: Ctx, type: TellstonesMoveType, what: string): void {
  const v = ctx.view;
  if (v.legal.includes(type)) return;
  const waited = v.awaiting[0];
  if (waited !== undefined && !v.awaiting.includes(ctx.userId)) {
    throw new UserError('tellstones/not-your-turn', `It is not your turn: the game waits for ${mention(waited)}.`);
  }
  throw new UserError(
    'tellstones/not-legal',
    `You cannot ${what} now: ${v.pending ? `the ${v.pending.kind} must be answered first` : 'no stone on the line allows it'}.`,
  );
}

/** Ends an ephemeral step: the menu becomes a note (the board is refreshed by the outbox). */
async function done(ctx: Ctx, note: string): Promise<void> {
  await ctx.update({ content: note.slice(0, 2000), components: [], allowed_mentions: { parse: [] } });
}

/** `line:position` from a select value, of a line this game has (and of `line` when given); the engine re-checks the stone. */
function stone(view: TellstonesView, value: string | undefined, line?: number): { line: 0 | 1; position: number } {
  const m = /^([01]):([0-6])$/.exec(value ?? '');
  if (!m || Number(m[1]) >= view.lines.length || (line !== undefined && Number(m[1]) !== line)) {
    throw new UserError('input/bad-choice', 'That choice is not one of the menu’s. Open the menu again from the board.');
  }
  return { line: Number(m[1]) as 0 | 1, position: Number(m[2]) };
}

/** The line a move names: only in Fearless Vanguard; a line this game does not have is refused, never read as line 1's neighbour. */
const lineOf = (v: TellstonesView, line: 0 | 1) => {
  if (line >= v.lines.length) throw new UserError('input/bad-choice', 'That choice is not one of the menu’s. Open the menu again from the board.');
  return v.lines.length > 1 ? { line } : {};
};
const select = (custom_id: string, placeholder: string, options: ReturnType<typeof stoneOptions>, min = 1, max = 1) => ({
  type: ComponentType.ActionRow as const,
  components: [{ type: ComponentType.StringSelect as const, custom_id, placeholder, options: options.slice(0, 25), min_values: min, max_values: Math.min(max, options.length) }],
});
/** One menu per line that has stones to offer ("Line 2: …" in Fearless Vanguard). */
const perLine = (v: TellstonesView, make: (line: 0 | 1, label: string) => ReturnType<typeof select> | null) =>
  v.lines.map((l) => make(l.line as 0 | 1, v.lines.length > 1 ? `Line ${l.line + 1}: ` : '')).filter((r) => r !== null);

const WORDS = { place: 'place a stone', hide: 'hide a stone', swap: 'swap stones', peek: 'peek', challenge: 'challenge' } as const;

const act: Route = {
  async handle(ctx, [a]) {
    const action = a as keyof typeof WORDS;
    requireLegal(ctx, action, WORDS[action]);
    const v = ctx.view;
    switch (action) {
      case 'place': {
        const options = v.lines.flatMap((line) =>
          line.stones.length >= 7
            ? []
            : line.pool.map((s) => ({ label: `${v.lines.length > 1 ? `Line ${line.line + 1}: ` : ''}${SYMBOL_NAME[s]}`, value: `${line.line}:${s}`, emoji: { name: SYMBOL_EMOJI[s] } })),
        );
        await ctx.reply({ content: '➕ **Place**: which stone from the pool?', components: [select(ctx.id('pl'), 'Pick a stone', options)] });
        return;
      }
      case 'hide':
        await ctx.reply({ content: '🙈 **Hide**: which face-up stone?', components: [select(ctx.id('hide'), 'Pick a face-up stone', stoneOptions(v, true))] });
        return;
      case 'swap': {
        const rows = perLine(v, (line, label) => {
          const options = [...stoneOptions(v, true, line), ...stoneOptions(v, false, line)].sort((x, y) => x.value.localeCompare(y.value));
          return options.length >= 2 ? select(ctx.id('swap', line), `${label}pick two stones`, options, 2, 2) : null;
        });
        await ctx.reply({ content: `🔀 **Swap**: pick two stones${v.lines.length > 1 ? ' of one line' : ''}.`, components: rows });
        return;
      }
      case 'peek': {
        const limit = v.peekLimit ?? 1;
        const rows = perLine(v, (line, label) => {
          const options = stoneOptions(v, false, line);
          return options.length ? select(ctx.id('peek', 0, line), `${label}peek yourself (up to ${limit})`, options, 1, limit) : null;
        });
        if (v.partner) {
          rows.push(
            ...perLine(v, (line, label) => {
              const options = stoneOptions(v, false, line);
              return options.length ? select(ctx.id('peek', 1, line), `${label}or hand the peek to your partner (up to ${limit})`, options, 1, limit) : null;
            }),
          );
          if (limit === 3) {
            rows.push(
              ...perLine(v, (line, label) => {
                const options = stoneOptions(v, false, line);
                return options.length >= 2 ? select(ctx.id('splitpick', line), `${label}or split 2-3 stones between you and your partner`, options, 2, 3) : null;
              }),
            );
          }
        }
        await ctx.reply({
          content: `👀 **Peek** at ${limit === 3 ? 'up to 3 face-down stones of one line' : '1 face-down stone'}. Only ${v.partner ? 'the one who looks' : 'you'} will see ${limit === 3 ? 'them' : 'it'}.`,
          components: rows.slice(0, 5),
        });
        return;
      }
      case 'challenge':
        await ctx.reply({
          content: `⚔️ **Challenge**: which face-down stone must ${mention(nextOf(v, ctx.userId))} name?`,
          components: [select(ctx.id('chal'), 'Pick a face-down stone', stoneOptions(v, false))],
          allowed_mentions: { parse: [] },
        });
        return;
    }
  },
};

const pl: Route = {
  async handle(ctx) {
    requireLegal(ctx, 'place', 'place a stone');
    const m = /^([01]):([a-z]+)$/.exec(ctx.values[0] ?? '');
    const symbol = m?.[2] as TellstonesSymbol | undefined;
    const line = Number(m?.[1]) as 0 | 1;
    if (!m || !symbol || !Object.hasOwn(SYMBOL_NAME, symbol) || line >= ctx.view.lines.length) {
      throw new UserError('input/bad-choice', 'That choice is not one of the menu’s. Open the menu again from the board.');
    }
    await ctx.update({
      content: `➕ Place ${symbolText(symbol)} at which end${ctx.view.lines.length > 1 ? ` of line ${line + 1}` : ''}?`,
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: ctx.id('place', line, symbol, 'left'), label: 'Left end', emoji: { name: '⬅️' } },
            { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: ctx.id('place', line, symbol, 'right'), label: 'Right end', emoji: { name: '➡️' } },
          ],
        },
      ],
    });
  },
};

const place: Route = {
  async handle(ctx, [line, symbol, end]) {
    const l = line as 0 | 1;
    const sym = symbol as TellstonesSymbol;
    await ctx.play({ type: 'place', symbol: sym, end: end as 'left' | 'right', ...lineOf(ctx.view, l) });
    await done(ctx, `✅ You placed ${symbolText(sym)} at the ${end} end${ctx.view.lines.length > 1 ? ` of line ${l + 1}` : ''}.`);
  },
};

const hide: Route = {
  async handle(ctx) {
    const s = stone(ctx.view, ctx.values[0]);
    await ctx.play({ type: 'hide', position: s.position, ...lineOf(ctx.view, s.line) });
    await done(ctx, `✅ You hid the stone at ${where(ctx.view, s.line, s.position)}.`);
  },
};

const swap: Route = {
  async handle(ctx, [line]) {
    const [a, b] = ctx.values.map((v) => stone(ctx.view, v, line as number));
    if (!a || !b) throw new UserError('tellstones/swap-two', 'Pick two stones to swap.');
    await ctx.play({ type: 'swap', a: a.position, b: b.position, ...lineOf(ctx.view, a.line) });
    await done(ctx, `✅ You swapped the stones at ${positionPair(ctx.view, a.line, a.position, b.position)}.`);
  },
};

const peek: Route = {
  async handle(ctx, [share, line]) {
    const picked = ctx.values.map((v) => stone(ctx.view, v, line as number));
    const l = (line as 0 | 1) ?? 0;
    const partner = share === 1 ? ctx.view.partner : null;
    if (share === 1 && !partner) throw new UserError('tellstones/no-partner', 'Only King’s Circle has partners to hand a peek to.');
    const positions = picked.map((p) => p.position);
    const r = await ctx.play({ type: 'peek', positions, ...lineOf(ctx.view, l), ...(partner ? { shareWith: partner } : {}) }, partner ? { notify: [partner] } : {});
    if (partner) {
      await done(ctx, `✅ You handed a peek at ${positions.map((p) => where(ctx.view, l, p)).join(', ')} to ${mention(partner)}; only they will see it (with **What do I know?**).`);
      return;
    }
    // The peeker's own view after the move: what they just learned, shown only to them.
    const after = r.after.view(ctx.userId) as TellstonesView;
    const seen = after.known.filter((k) => k.line === l && positions.includes(k.position));
    await done(ctx, `👀 Only you can see this:\n${seen.map((k) => `• ${where(after, k.line, k.position)}: **${symbolText(k.symbol)}**`).join('\n')}\nForgot it later? Click **What do I know?** on the board.`);
  },
};

/** A split peek, step 1: the stones are picked; now which of them the partner sees. */
const splitpick: Route = {
  async handle(ctx, [line]) {
    const picked = ctx.values.map((v) => stone(ctx.view, v, line as number)).map((x) => x.position).sort((a, b) => a - b);
    if (!ctx.view.partner || picked.length < 2) throw new UserError('tellstones/no-partner', 'Split a peek of two or three stones with your partner (King’s Circle).');
    const l = line as 0 | 1;
    const options = picked.map((position) => ({ label: where(ctx.view, l, position).replace(/^./, (c) => c.toUpperCase()), value: `${l}:${position}`, emoji: { name: '⬛' } }));
    await ctx.update({
      content: `👀 Which of these does ${mention(ctx.view.partner)} see? You see the others; each of you only your own.`,
      components: [select(ctx.id('split', l, picked.join('.')), 'Your partner sees…', options, 1, picked.length - 1)],
      allowed_mentions: { parse: [] },
    });
  },
};

/** A split peek, step 2: the partner's share chosen; the peek is made. */
const split: Route = {
  async handle(ctx, [line, positions]) {
    const all = String(positions).split('.').map(Number);
    const l = line as 0 | 1;
    const theirs = ctx.values.map((v) => stone(ctx.view, v, l).position).filter((p) => all.includes(p));
    const mine = all.filter((p) => !theirs.includes(p));
    const partner = ctx.view.partner;
    if (!partner || theirs.length === 0 || mine.length === 0) throw new UserError('input/bad-choice', 'Give your partner some of the stones and keep the rest: open Peek again from the board.');
    const r = await ctx.play({ type: 'peek', positions: mine, forPartner: theirs, shareWith: partner, ...lineOf(ctx.view, l) }, { notify: [partner] });
    const after = r.after.view(ctx.userId) as TellstonesView;
    const seen = after.known.filter((k) => k.line === l && mine.includes(k.position));
    await done(
      ctx,
      `👀 Only you can see this:\n${seen.map((k) => `• ${where(after, k.line, k.position)}: **${symbolText(k.symbol)}**`).join('\n')}\n${mention(partner)} saw ${theirs.map((p) => where(after, l, p)).join(', ')} (only they did). Forgot it later? Click **What do I know?** on the board.`,
    );
  },
};

const chal: Route = {
  async handle(ctx) {
    const s = stone(ctx.view, ctx.values[0]);
    await ctx.play({ type: 'challenge', position: s.position, ...lineOf(ctx.view, s.line) });
    await done(ctx, `✅ You challenged ${mention(nextOf(ctx.view, ctx.userId))} to name the stone at ${where(ctx.view, s.line, s.position)}.`);
  },
};

const direct = directRoute<TellstonesView, TellstonesMove>;

const boast = direct(() => ({ move: { type: 'boast' }, note: 'You boasted.' }));

const ans = direct(([symbol]) => ({ move: { type: 'answer-challenge', symbol: symbol as TellstonesSymbol }, note: `You named ${symbolText(symbol as TellstonesSymbol)}.` }));

const boa = direct(([answer]) => ({ move: { type: 'answer-boast', answer: answer as 'believe' | 'doubt' | 'counter' }, note: `You answered: ${answer}.` }));

const prvp: Route = {
  async handle(ctx) {
    const p = ctx.view.pending;
    if (p?.kind !== 'proof') throw new UserError('tellstones/no-proof', 'No boast is being proven now.');
    if (p.prover !== ctx.userId) throw new UserError('tellstones/not-prover', `It is ${mention(p.prover)}’s turn to name a stone of the boast.`);
    const s = stone(ctx.view, ctx.values[0]);
    await ctx.reply({
      content: `📣 The stone at ${where(ctx.view, s.line, s.position)} is…? (a wrong name loses the game)`,
      components: symbolRows((sym) => ctx.id('prv', s.line, s.position, sym)),
    });
  },
};

const prv: Route = {
  async handle(ctx, [line, position, symbol]) {
    await ctx.play({ type: 'prove', position: position as number, symbol: symbol as TellstonesSymbol, ...lineOf(ctx.view, line as 0 | 1) });
    await done(ctx, `✅ You named ${where(ctx.view, line as number, position as number)} as ${symbolText(symbol as TellstonesSymbol)}: see the board.`);
  },
};

/** "What do I know?": only the clicker's own view, re-read each time; finished games too. */
const know: Route = {
  finished: true,
  anytime: true,
  async handle(ctx) {
    await ctx.reply(knowPayload(ctx.view, ctx.game.id));
  },
};

export const routes = { act, boast, know, pl, place, hide, swap, peek, splitpick, split, chal, ans, boa, prvp, prv };

/** The seat after `player` clockwise (who answers their challenge). */
function nextOf(v: TellstonesView, player: string): string {
  const seat = v.seats.findIndex((s) => s.player === player);
  return v.seats[(seat + 1) % v.seats.length]?.player ?? player;
}
