import { describe, expect, it } from 'vitest';
import { parseCustomId } from '../../../src/bot/custom-id.ts';
import { parseGameId } from '../../../src/bot/game-module.ts';
import { ids as tsIds } from '../../../src/games/tellstones/ids.ts';
import { BACK, SYMBOL_EMOJI, SYMBOL_NAME, present } from '../../../src/games/tellstones/present.ts';
import type { BoardMeta, MessagePayload } from '../../../src/bot/game-module.ts';
import {
  SYMBOLS,
  tellstones,
  type TellstonesMove,
  type TellstonesOptions,
  type TellstonesState,
} from '../../../src/games/tellstones/engine/index.ts';
import { expectNoLeak, withoutNamingButtons } from './leaks.ts';

/**
 * Snapshots of the Tellstones board (and one turn DM), rendered from engine states built with the
 * engine's own setup and apply from a fixed seed: no database, no emulator, no clock (deadlines
 * are fixed dates). Besides the snapshots, every payload is checked for what a snapshot would not
 * make obvious: the custom ids carry the game and the board's version, Discord's size limits
 * hold, and no face-down stone's symbol shows (checked against the engine's hidden state with the
 * same helpers as tellstones.hidden.test.ts).
 */

// Snowflake-like ids: no id contains a symbol's name (the leak checks search the JSON text).
const A = '200000000000000001';
const B = '200000000000000002';
const C = '200000000000000003';
const D = '200000000000000004';
const names = { [A]: 'Alice', [B]: 'Bob_*', [C]: 'Cat', [D]: 'Dan' };
/** With this seed: standard and King's Circle start with the Hammer, Vanguard with Hammer and Scales. */
const SEED = 'c'.repeat(64);
const COMMITMENT = 'd'.repeat(64);
const GAME = 42;
const deadline = new Date('2026-11-23T12:00:00Z');
const unix = deadline.getTime() / 1000;
const BOARD_URL = 'https://discord.com/channels/1/2/3';

type Step = [actor: string, move: TellstonesMove];

/** Sets a game up with the fixed seed and plays `steps` through the engine. */
function play(players: string[], options: Partial<TellstonesOptions>, steps: Step[]): TellstonesState {
  let state = tellstones.setup({ seed: SEED, players, options: options as TellstonesOptions });
  for (const [actor, move] of steps) state = tellstones.apply(state, actor, move);
  return state;
}

/** The board version a game would be at: one per move applied (setup is version 0). */
const versionOf = (steps: readonly Step[]) => steps.length;

function boardMeta(state: TellstonesState, version: number): BoardMeta {
  const over = state.outcome !== null;
  const awaited = tellstones.awaiting(state);
  return {
    gameId: GAME,
    version,
    names,
    deadlines: Object.fromEntries(state.seats.map((p) => [p, awaited.includes(p) ? deadline : null])),
    seedCommitment: COMMITMENT,
    seed: over ? SEED : null,
  };
}

/** The public board, from the spectator view only (as the bot renders it). */
const boardOf = (state: TellstonesState, version: number) => present.board(tellstones.view(state, null), boardMeta(state, version));

type Component = { type: number; custom_id?: string; url?: string; label?: string; placeholder?: string; options?: Array<{ label: string; value: string }> };
const componentsOf = (p: MessagePayload): Component[] => (p.components ?? []).flatMap((r) => r.components as Component[]);
const customIds = (p: MessagePayload): string[] => componentsOf(p).flatMap((c) => (c.custom_id ? [c.custom_id] : []));
const labels = (p: MessagePayload): string[] => componentsOf(p).map((c) => c.label ?? c.placeholder ?? '');

/** Discord's limits on a message (https://discord.com/developers/docs/resources/message, …/components). */
function expectWithinDiscordLimits(p: MessagePayload, where: string): void {
  expect((p.content ?? '').length, `${where}: content`).toBeLessThanOrEqual(2000);
  const rows = p.components ?? [];
  expect(rows.length, `${where}: action rows`).toBeLessThanOrEqual(5);
  for (const [i, r] of rows.entries()) {
    const cs = r.components as Component[];
    expect(cs.length, `${where}: row ${i} is not empty`).toBeGreaterThan(0);
    const buttons = cs.filter((c) => c.type === 2);
    const selects = cs.filter((c) => c.type !== 2);
    expect(buttons.length, `${where}: buttons in row ${i}`).toBeLessThanOrEqual(5);
    // A select menu fills its row alone.
    if (selects.length) expect(cs.length, `${where}: a select menu shares row ${i}`).toBe(1);
    for (const c of cs) {
      if (c.custom_id !== undefined) expect(c.custom_id.length, `${where}: custom_id ${c.custom_id}`).toBeLessThanOrEqual(100);
      else expect(c.url, `${where}: a component without custom_id is a link button`).toMatch(/^https:\/\//);
      if (c.label !== undefined) expect(c.label.length, `${where}: label ${c.label}`).toBeLessThanOrEqual(80);
      if (c.placeholder !== undefined) expect(c.placeholder.length, `${where}: placeholder`).toBeLessThanOrEqual(150);
      if (c.options) {
        expect(c.options.length, `${where}: select options`).toBeGreaterThanOrEqual(1);
        expect(c.options.length, `${where}: select options`).toBeLessThanOrEqual(25);
        for (const o of c.options) {
          expect(o.label.length, `${where}: option label`).toBeLessThanOrEqual(100);
          expect(o.value.length, `${where}: option value`).toBeLessThanOrEqual(100);
        }
      }
    }
  }
  const ids = customIds(p);
  expect(new Set(ids).size, `${where}: custom_ids are unique in a message`).toBe(ids.length);
  const embeds = p.embeds ?? [];
  expect(embeds.length, `${where}: embeds`).toBeLessThanOrEqual(10);
  for (const e of embeds) {
    let total = 0;
    expect((e.title ?? '').length, `${where}: embed title`).toBeLessThanOrEqual(256);
    expect((e.description ?? '').length, `${where}: embed description`).toBeLessThanOrEqual(4096);
    expect((e.footer?.text ?? '').length, `${where}: embed footer`).toBeLessThanOrEqual(2048);
    total += (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text ?? '').length;
    expect((e.fields ?? []).length, `${where}: embed fields`).toBeLessThanOrEqual(25);
    for (const f of e.fields ?? []) {
      expect(f.name.length, `${where}: field name ${f.name}`).toBeGreaterThan(0);
      expect(f.name.length, `${where}: field name ${f.name}`).toBeLessThanOrEqual(256);
      expect(f.value.length, `${where}: field ${f.name} value`).toBeGreaterThan(0);
      expect(f.value.length, `${where}: field ${f.name} value`).toBeLessThanOrEqual(1024);
      total += f.name.length + f.value.length;
    }
    expect(total, `${where}: embed total`).toBeLessThanOrEqual(6000);
  }
}

/** Every custom_id is one of ours, for this game; all but "What do I know?" (which re-reads the game) carry the board's version. */
function expectIdsCarryGameAndVersion(p: MessagePayload, version: number, where: string): void {
  const ids = customIds(p);
  for (const id of ids) {
    const core = parseCustomId(id);
    const parsed = core ? { gameId: core.args[0], version: core.route === 'g:resign' ? core.args[1] : null, action: core.route } : parseGameId(id, [tsIds]);
    expect(parsed, `${where}: ${id} parses`).not.toBeNull();
    expect(parsed!.gameId, `${where}: ${id} carries the game id`).toBe(GAME);
    if (parsed!.action === 'know') expect(parsed!.version, `${where}: ${id}`).toBeNull();
    else expect(parsed!.version, `${where}: ${id} carries the board's version`).toBe(version);
  }
  expect(ids.filter((id) => !id.startsWith('ts:know:')).length, `${where}: some ids carry the version`).toBeGreaterThan(0);
}

/** The checks every running board gets, then the snapshot. */
function expectGoodBoard(state: TellstonesState, version: number, where: string): MessagePayload {
  const payload = boardOf(state, version);
  expectWithinDiscordLimits(payload, where);
  expectNoLeak(state, payload, true, where);
  if (state.outcome === null) expectIdsCarryGameAndVersion(payload, version, where);
  // Public boards ping nobody (the DMs do).
  expect(payload.allowed_mentions).toEqual({ parse: [] });
  return payload;
}

// ---------------------------------------------------------------------------------------------
// The games. Comments show the line after each step (`-x` is face down), positions 0-based.

/** Standard, Alice moves first; the line starts as [hammer]. */
const STANDARD: Step[] = [
  [A, { type: 'place', symbol: 'crown', end: 'left' }], // crown hammer
  [B, { type: 'place', symbol: 'sword', end: 'right' }], // crown hammer sword
  [A, { type: 'hide', position: 1 }], // crown -hammer sword
  [B, { type: 'hide', position: 0 }], // -crown -hammer sword
  [A, { type: 'peek', positions: [0] }], // Alice learns the crown
  [B, { type: 'place', symbol: 'knight', end: 'right' }], // -crown -hammer sword knight
  [A, { type: 'challenge', position: 1 }],
  [B, { type: 'answer-challenge', symbol: 'flag' }], // wrong: Alice scores; crown -> hammer revealed: -crown hammer sword knight
  [B, { type: 'swap', a: 0, b: 3 }], // knight hammer sword -crown
  [A, { type: 'hide', position: 2 }], // knight hammer -sword -crown
];
const CHALLENGE: Step[] = [...STANDARD, [B, { type: 'challenge', position: 3 }]]; // Alice must name the crown (she peeked it)
const BOAST: Step[] = [...STANDARD, [B, { type: 'boast' }]];
const FINISHED: Step[] = [
  ...CHALLENGE,
  [A, { type: 'answer-challenge', symbol: 'crown' }], // right: Alice 2; knight hammer -sword crown
  [A, { type: 'hide', position: 0 }], // -knight hammer -sword crown
  [B, { type: 'challenge', position: 0 }],
  [A, { type: 'answer-challenge', symbol: 'knight' }], // right: Alice 3, wins; the sword stays face down
];

/** King's Circle, seats A1 B1 A2 B2 = Alice, Bob, Cat, Dan; Cat moves first; the line starts as [hammer]. */
const KINGS: Step[] = [
  [C, { type: 'place', symbol: 'shield', end: 'right' }], // hammer shield
  [D, { type: 'hide', position: 0 }], // -hammer shield
  [A, { type: 'place', symbol: 'flag', end: 'left' }], // flag -hammer shield
  [B, { type: 'hide', position: 2 }], // flag -hammer -shield
  [C, { type: 'peek', positions: [2], shareWith: A }], // Cat hands the peek to her partner Alice
  [D, { type: 'place', symbol: 'crown', end: 'right' }], // flag -hammer -shield crown
  [A, { type: 'challenge', position: 1 }],
  [B, { type: 'answer-challenge', symbol: 'knight' }], // wrong: team A scores; Bob (team B) may now peek at 3
];

/** Fearless Vanguard, Bob moves first; line 1 (Alice's set) starts [hammer], line 2 (Bob's) [scales]. */
const VANGUARD: Step[] = [
  [B, { type: 'place', line: 0, symbol: 'crown', end: 'right' }], // L1: hammer crown
  [A, { type: 'place', line: 1, symbol: 'crown', end: 'left' }], // L2: crown scales
  [B, { type: 'hide', line: 0, position: 1 }], // L1: hammer -crown (a Crown face up on L2, one face down on L1)
  [A, { type: 'hide', line: 1, position: 1 }], // L2: crown -scales
  [B, { type: 'place', line: 1, symbol: 'sword', end: 'right' }], // L2: crown -scales sword
  [A, { type: 'hide', line: 0, position: 0 }], // L1: -hammer -crown
  [B, { type: 'boast' }],
  [A, { type: 'answer-boast', answer: 'doubt' }],
  [B, { type: 'prove', line: 0, position: 0, symbol: 'hammer' }], // right; two stones still to name
];

describe('the Tellstones board', () => {
  it('opening board of a standard game: one face-up stone, the first player, the commitment but not the seed', () => {
    const state = play([A, B], {}, []);
    const payload = expectGoodBoard(state, 0, 'opening');
    const embed = payload.embeds![0]!;
    expect(embed.title).toBe(`Tellstones #${GAME}`);
    expect(embed.description).toContain(`**Turn:** <@${A}>`);
    expect(embed.description).toContain(`<t:${unix}:R>`);
    expect(embed.description).toContain('The game began with the 🔨 Hammer face up.');
    expect(embed.fields!.map((f) => f.name)).toEqual(['The line', 'Fair setup']);
    expect(embed.fields![0]!.value).toBe(`\`1\` 🔨 Hammer\n**Pool:** ${SYMBOLS.filter((s) => s !== 'hammer').map((s) => `${SYMBOL_EMOJI[s]} ${SYMBOL_NAME[s]}`).join(' · ')}`);
    expect(embed.fields![1]!.value).toContain(COMMITMENT);
    expect(JSON.stringify(payload)).not.toContain(SEED);
    // Only what one face-up stone allows: place, hide, swap is not possible yet, nor anything needing a face-down stone.
    const enabled = componentsOf(payload).filter((c) => !(c as { disabled?: boolean }).disabled).map((c) => c.label);
    expect(enabled).toEqual(['Place', 'Hide', 'What do I know?', 'Forfeit…']);
    // The turn line offers what the buttons offer, no more.
    expect(embed.description).toContain(`: place or hide.`);
    expect(payload).toMatchSnapshot();
  });

  it('mid-game, a pending challenge: face-up and face-down stones, the seven symbols as answer buttons', () => {
    const state = play([A, B], {}, CHALLENGE);
    const version = versionOf(CHALLENGE);
    // The situation is the one described: two face up, two face down, a challenge for Alice.
    expect(state.lines[0]).toEqual([
      { symbol: 'knight', faceUp: true },
      { symbol: 'hammer', faceUp: true },
      { symbol: 'sword', faceUp: false },
      { symbol: 'crown', faceUp: false },
    ]);
    expect(state.pending).toMatchObject({ kind: 'challenge', answerer: A, position: 3 });
    const payload = expectGoodBoard(state, version, 'challenge');
    const embed = payload.embeds![0]!;
    expect(embed.description).toContain(`**Challenge:** <@${B}> challenges <@${A}> to name the stone at position 4.`);
    // The deadline shown is the answerer's.
    expect(embed.description).toContain(`then <@${A}> forfeits`);
    expect(embed.fields![0]!.value.split('\n').slice(0, 4)).toEqual(['`1` 🐴 Knight ← left end', '`2` 🔨 Hammer', `\`3\` ${BACK} face down`, `\`4\` ${BACK} face down ← right end`]);
    // Answer buttons: all seven symbols, in the rulebook's order, 4 + 3, whatever the stone is.
    const [r1, r2, r3] = payload.components!;
    const answers = [...r1!.components, ...r2!.components] as Component[];
    expect(answers.map((c) => c.custom_id)).toEqual(SYMBOLS.map((s) => `ts:ans:${GAME}:${version}:${s}`));
    expect(answers.map((c) => c.label)).toEqual(SYMBOLS.map((s) => SYMBOL_NAME[s]));
    expect((r3!.components as Component[]).map((c) => c.custom_id)).toEqual([`ts:know:${GAME}`, `g:resign:${GAME}:${version}`]);
    // Without those buttons, neither face-down symbol is anywhere on the board.
    const rest = JSON.stringify(withoutNamingButtons(payload));
    for (const s of ['crown', 'sword'] as const) {
      expect(rest.toLowerCase()).not.toContain(s);
      expect(rest).not.toContain(SYMBOL_EMOJI[s]);
    }
    expect(payload).toMatchSnapshot();
  });

  it('a pending boast: Believe, Doubt, Counter-boast', () => {
    const state = play([A, B], {}, BOAST);
    const version = versionOf(BOAST);
    const payload = expectGoodBoard(state, version, 'boast');
    expect(payload.embeds![0]!.description).toContain(`**Boast:** <@${B}> claims to know every face-down stone. <@${A}>: believe, doubt or counter.`);
    expect(labels(payload)).toEqual(['Believe', 'Doubt', 'Counter-boast', 'What do I know?', 'Forfeit…']);
    expect(customIds(payload).slice(0, 3)).toEqual(['believe', 'doubt', 'counter'].map((a) => `ts:boa:${GAME}:${version}:${a}`));
    expect(payload).toMatchSnapshot();
  });

  it('King’s Circle: four seats in two teams, team points, a peek handed to a partner, up to 3 stones to peek', () => {
    const state = play([A, B, C, D], { variant: 'kings-circle' }, KINGS);
    const version = versionOf(KINGS);
    const payload = expectGoodBoard(state, version, 'kings-circle');
    const embed = payload.embeds![0]!;
    expect(embed.title).toBe(`Tellstones: King’s Circle #${GAME}`);
    expect(embed.description).toContain(`Team A (<@${A}> & <@${C}>) vs Team B (<@${B}> & <@${D}>)`);
    expect(embed.description).toContain('**Points:** Team A (Alice & Cat): **1** · Team B (Bob\\_\\* & Dan): **0**');
    expect(embed.description).toContain(`**Turn:** <@${B}>: place, hide, swap, peek (up to 3 stones)`);
    expect(embed.description).toContain(`<@${C}> handed a peek at position 3 to <@${A}>.`);
    expect(payload).toMatchSnapshot();
  });

  it('Fearless Vanguard: two lines side by side, each with its owner, while a doubted boast is proven', () => {
    const state = play([A, B], { variant: 'fearless-vanguard' }, VANGUARD);
    const version = versionOf(VANGUARD);
    // A Crown is face up on line 2 and face down on line 1: the board may show the first, never the second.
    expect(state.lines).toEqual([
      [
        { symbol: 'hammer', faceUp: true },
        { symbol: 'crown', faceUp: false },
      ],
      [
        { symbol: 'crown', faceUp: true },
        { symbol: 'scales', faceUp: false },
        { symbol: 'sword', faceUp: true },
      ],
    ]);
    expect(state.pending).toMatchObject({ kind: 'proof', named: 1 });
    const payload = expectGoodBoard(state, version, 'vanguard');
    const embed = payload.embeds![0]!;
    expect(embed.title).toBe(`Tellstones: Fearless Vanguard #${GAME}`);
    expect(embed.fields!.map((f) => [f.name, f.inline])).toEqual([
      ['Line 1 (Alice’s set)', true],
      ['Line 2 (Bob\\_\\*’s set)', true],
      ['Fair setup', false],
    ]);
    expect(embed.description).toContain(`**Proof:** <@${A}> doubted <@${B}>’s boast. <@${B}> names the next stone (1 named, 2 to go`);
    // The prover's menu lists exactly the face-down stones of both lines, with no symbol.
    const select = componentsOf(payload)[0]!;
    expect(select.custom_id).toBe(`ts:prvp:${GAME}:${version}`);
    expect(select.options!.map((o) => [o.label, o.value])).toEqual([
      ['Line 1, position 2', '0:1'],
      ['Line 2, position 2', '1:1'],
    ]);
    expect(payload).toMatchSnapshot();
  });

  it('a finished game: the result, the score, the revealed seed, no buttons, a stone still face down', () => {
    const state = play([A, B], {}, FINISHED);
    expect(state.outcome).toMatchObject({ winners: [A], reason: 'points' });
    expect(state.lines[0]!.filter((s) => !s.faceUp)).toEqual([{ symbol: 'sword', faceUp: false }]);
    const payload = expectGoodBoard(state, versionOf(FINISHED), 'finished');
    const embed = payload.embeds![0]!;
    expect(embed.description).toContain(`🏆 <@${A}> wins. Score: <@${A}> 3 · <@${B}> 0.`);
    expect(embed.description).not.toContain('**Turn:**');
    expect(embed.description).not.toContain('**Deadline:**');
    expect(embed.fields!.at(-1)!.value).toContain(`Seed: \`${SEED}\``);
    expect(embed.footer!.text).toBe('Game over');
    expect(payload.components).toEqual([]);
    expect(payload).toMatchSnapshot();
  });
});

describe('the checks above', () => {
  it('fail on a board that leaks a face-down stone, breaks a Discord limit or carries a stale version', () => {
    const state = play([A, B], {}, CHALLENGE);
    const version = versionOf(CHALLENGE);
    const good = boardOf(state, version);
    const tamper = (f: (p: MessagePayload) => void): MessagePayload => {
      const p = structuredClone(good);
      f(p);
      return p;
    };
    // The crown is face down at position 4.
    const leaky = tamper((p) => {
      const field = p.embeds![0]!.fields![0]!;
      field.value = field.value.replace(`\`4\` ${BACK} face down`, '`4` 👑 Crown');
    });
    expect(() => expectNoLeak(state, leaky, true, 'leaky')).toThrow();
    const hinted = tamper((p) => {
      p.embeds![0]!.description += '\n(psst: the Crown)';
    });
    expect(() => expectNoLeak(state, hinted, true, 'hinted')).toThrow();
    const sixRows = tamper((p) => {
      p.components!.push(p.components![2]!, p.components![2]!, p.components![2]!);
    });
    expect(() => expectWithinDiscordLimits(sixRows, 'six rows')).toThrow();
    const longField = tamper((p) => {
      p.embeds![0]!.fields![1]!.value = 'x'.repeat(1025);
    });
    expect(() => expectWithinDiscordLimits(longField, 'long field')).toThrow();
    expect(() => expectIdsCarryGameAndVersion(good, version - 1, 'stale')).toThrow();
    // The untouched board passes all three.
    expectNoLeak(state, good, true, 'good');
    expectWithinDiscordLimits(good, 'good');
    expectIdsCarryGameAndVersion(good, version, 'good');
  });
});

describe('the Tellstones turn DM', () => {
  it('asks the challenged player to answer, without naming the stone she knows, with a link to the board', () => {
    const state = play([A, B], {}, CHALLENGE);
    const version = versionOf(CHALLENGE);
    const view = tellstones.view(state, A);
    // Alice peeked at the crown, which the swap moved to position 4: she knows it, the DM must not say it.
    expect(view.known).toEqual([{ line: 0, position: 3, symbol: 'crown' }]);
    const payload = present.notification(
      { type: 'turn', gameId: GAME, kind: 'tellstones', view, deadlineAt: deadline.toISOString(), opponents: [B] },
      { names, boardUrl: BOARD_URL, version, active: true },
    );
    expectWithinDiscordLimits(payload, 'turn DM');
    // A DM falls back to the public channel when the player's DMs are closed: it must be fit for everyone.
    expectNoLeak(state, payload, false, 'turn DM');
    expect(payload.content).toContain(`<@${B}> challenges you: name the stone at position 4`);
    expect(payload.content).toContain(`<t:${unix}:f>`);
    expect(payload.content).toContain('You know 1 face-down stone: click **What do I know?** on the board.');
    expect(payload.content).toContain(`Board: ${BOARD_URL}`);
    expect(componentsOf(payload)).toEqual([{ type: 2, style: 5, url: BOARD_URL, label: 'Open the board' }]);
    expect(payload.allowed_mentions).toEqual({ parse: [] });
    expect(payload).toMatchSnapshot();
  });
});
