import { copyOutcome } from '../../../kernel/checks.ts';
import type { Outcome, PlayerId } from '../../../kernel/types.ts';
import { squareName } from './board.ts';
import { BOARD_COLS, BOARD_ROWS, TALISMANS, TILES, type Ability, type Colour, type Half, type SquareKind } from './data.ts';
import { anyStoneFits, availableStones, copyJson, isAvailableAt, platformsOf, supercrystalsOf, talismanBlock, talismanColours } from './rules.ts';
import type { CrystalliaEvent, CrystalliaState, TurnLog } from './schema.ts';
import { scoreBreakdown, type ScoreBreakdown } from './scoring.ts';

/** A card of the pyramid as everyone sees it: face-up (available) cards show their stone, face-down ones nothing. */
export type ViewCard = null | { faceUp: false } | { faceUp: true; id: number; halves: [Half, Half] };

export interface ViewSeat {
  player: PlayerId;
  /** 0-based place in turn order (0 moved first). */
  seat: number;
  status: 'playing' | 'forfeited' | 'eliminated';
  crystals: Record<Colour, number>;
  blacks: Record<Colour, number>;
  /** Which platforms are flipped to the advanced side; null while the flips are secret (the viewer's own choice is in `flip.mine`). */
  flipped: Record<Colour, boolean> | null;
  supercrystals: Colour[];
  /** The colours this player took with talismans. */
  talismans: Colour[];
  score: ScoreBreakdown;
}

export interface ViewTurnLog {
  player: PlayerId;
  number: number;
  second: boolean;
  events: CrystalliaEvent[];
  /** One line for the bot to print after the player's name, e.g. "placed red/blue on C3–D3 · +1 red (square) · +2 red (run)". */
  text: string;
}

export interface CrystalliaView {
  /** Turn order. */
  players: PlayerId[];
  advanced: boolean;
  phase: 'flip' | 'play' | 'over';
  board: {
    rows: number;
    cols: number;
    /** What each square shows, row by row (square = row * 9 + column). */
    squares: SquareKind[];
    /** The six tiles in board order (top row left to right, then the bottom row), with quarter turns clockwise. */
    tiles: Array<{ id: string; kind: 'regular' | 'chaos'; rotation: number }>;
  };
  /** Stones on the board, by id. */
  stones: Array<{ id: number; halves: [Half, Half]; squares: [number, number] }>;
  /** The pyramid, top row (7) to bottom row (9); null where a card was taken. */
  pyramid: ViewCard[][];
  /** Ids of the available stones (the face-up cards), top row to bottom, left to right. */
  available: number[];
  /** Stones that fitted nowhere and left the game. */
  discarded: Array<{ id: number; halves: [Half, Half] }>;
  seats: ViewSeat[];
  supercrystals: Record<Colour, PlayerId | null>;
  talismans: { used: Array<{ player: PlayerId; colour: Colour }>; left: number; colours: Colour[] };
  supply: Record<Colour, number>;
  scores: Record<PlayerId, number>;
  /** The running turn; null during the flip step and when the game is over. */
  turn: null | {
    player: PlayerId;
    number: number;
    second: boolean;
    step: 'take' | 'ability' | 'isolate';
    /** The stone placed this turn. */
    stone: number | null;
    /** Abilities covered and still waiting (step `ability`). */
    pending: Ability[];
    /** Colours the isolation crystal may take (step `isolate`). */
    choices: Colour[] | null;
    /** A talisman may be used now. */
    talismanAllowed: boolean;
    /** Step `take`: no available stone fits anywhere, so one must be discarded (or a talisman used). */
    mustDiscard: boolean;
  };
  /** The secret flip step of Advanced Mode; null otherwise. */
  flip: null | { waitingFor: PlayerId[]; mine: Colour[] | null };
  eliminated: PlayerId[];
  forfeits: PlayerId[];
  /** The record of the turn being played (so far) and of the last complete turn. */
  thisTurn: ViewTurnLog | null;
  lastTurn: ViewTurnLog | null;
  outcome: Outcome | null;
}

const pair = (h: readonly [Half, Half]): [Half, Half] => [h[0], h[1]];
const span = (sq: readonly [number, number]): string => `${squareName(sq[0])}–${squareName(sq[1])}`;

/** A stone's name: "red/blue", "red/red", or "wild". */
export function stoneName(halves: readonly [Half, Half]): string {
  return halves[0] === 'yellow' && halves[1] === 'yellow' ? 'wild' : `${halves[0]}/${halves[1]}`;
}

const ABILITY_NAMES: Record<Ability, string> = { move: 'Move', rotate: 'Rotate', 'extra-turn': 'Extra Turn' };
const WHY: Record<string, string> = { square: 'square', isolation: 'isolation', run: 'run', talisman: 'talisman' };

/** The one-line record of a turn's events, in order; consecutive crystals of one colour and reason (and black crystals for one empty supply) are summed. */
export function describeTurn(events: readonly CrystalliaEvent[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < events.length) {
    const e = events[i]!;
    switch (e.kind) {
      case 'place':
        parts.push(`placed ${stoneName(e.halves)} on ${span(e.squares)}`);
        break;
      case 'move':
        parts.push(`moved ${stoneName(e.halves)} ${span(e.from)} → ${span(e.to)}`);
        break;
      case 'rotate':
        parts.push(`rotated ${stoneName(e.halves)} ${span(e.from)} → ${span(e.to)}`);
        break;
      case 'skip':
        parts.push(`${e.declined ? 'skipped' : 'could not use'} ${e.abilities.map((a) => ABILITY_NAMES[a]).join(', ')}`);
        break;
      case 'gain': {
        let n = 1;
        while (events[i + n]?.kind === 'gain' && (events[i + n] as typeof e).colour === e.colour && (events[i + n] as typeof e).why === e.why) n++;
        parts.push(`+${n} ${e.colour} (${WHY[e.why]})`);
        i += n;
        continue;
      }
      case 'black': {
        if (e.why !== 'empty-supply') {
          parts.push(e.why === 'bonus' ? '+1 black (6+ crystals this turn)' : `${e.platform} platform overflowed: its crystals go back, +1 black`);
          break;
        }
        let n = 1;
        const same = (x: CrystalliaEvent | undefined) => x?.kind === 'black' && x.why === e.why && x.colour === e.colour && x.source === e.source;
        while (same(events[i + n])) n++;
        parts.push(`+${n} black (no ${e.colour} left${e.source ? `, ${WHY[e.source]}` : ''})`);
        i += n;
        continue;
      }
      case 'supercrystal':
        parts.push(`took the ${e.colour} supercrystal`);
        break;
      case 'second-turn':
        parts.push(`second turn (${e.why.map((w) => (w === 'run-of-4' ? 'run of 4' : 'Extra Turn')).join(', ')})`);
        break;
      case 'extra-turn-void':
        parts.push(`Extra Turn does nothing (${e.why === 'first-turn' ? 'first turn of the game' : 'already a second turn'})`);
        break;
      case 'talisman':
        parts.push(`used a talisman for ${e.colour}`);
        break;
      case 'discard':
        parts.push(`no stone fits: ${stoneName(e.halves)} leaves the game`);
        break;
      case 'eliminated':
        parts.push(`13 ${e.colour}: out of the game`);
        break;
    }
    i++;
  }
  return parts.join(' · ');
}

function viewLog(log: TurnLog | null): ViewTurnLog | null {
  if (!log) return null;
  return { player: log.player, number: log.number, second: log.second, events: copyJson(log.events), text: describeTurn(log.events) };
}

const perColour = <T>(f: (c: Colour) => T): Record<Colour, T> => ({ red: f('red'), blue: f('blue'), green: f('green'), purple: f('purple') });

/**
 * What `viewer` may see (null: a spectator). Everything is public except the face-down stones of
 * the pyramid (shown as `{ faceUp: false }` only) and, during the flip step, the other players'
 * flips (each player sees their own in `flip.mine`). The generator never leaves the engine.
 */
export function viewState(s: CrystalliaState, viewer: PlayerId | null): CrystalliaView {
  const phase = s.outcome ? 'over' : s.flips ? 'flip' : 'play';
  const secret = s.flips !== null;
  const seats = s.players.map((player, seat): ViewSeat => {
    const pl = platformsOf(s, player);
    const flipped = secret ? null : perColour((c) => pl.flipped[c]);
    const supercrystals = supercrystalsOf(s, player);
    return {
      player,
      seat,
      status: s.eliminated.includes(player) ? 'eliminated' : s.forfeits.includes(player) ? 'forfeited' : 'playing',
      crystals: perColour((c) => pl.crystals[c]),
      blacks: perColour((c) => pl.blacks[c]),
      flipped,
      supercrystals,
      talismans: s.talismans.filter((x) => x.player === player).map((x) => x.colour),
      score: scoreBreakdown({ crystals: pl.crystals, blacks: pl.blacks, flipped }, supercrystals),
    };
  });
  const t = s.turn;
  return {
    players: s.players.slice(),
    advanced: s.advanced,
    phase,
    board: {
      rows: BOARD_ROWS,
      cols: BOARD_COLS,
      squares: s.squares.slice(),
      tiles: s.tiles.map((x) => ({ id: x.id, kind: TILES.find((d) => d.id === x.id)?.kind ?? (x.id.startsWith('C') ? 'chaos' : 'regular'), rotation: x.rotation })),
    },
    stones: s.positions.flatMap((pos, id) => (pos ? [{ id, halves: pair(s.stones[id]!), squares: [pos[0], pos[1]] as [number, number] }] : [])),
    pyramid: s.pyramid.map((row, r) =>
      row.map((id, i): ViewCard => (id === null ? null : isAvailableAt(s.pyramid, r, i) ? { faceUp: true, id, halves: pair(s.stones[id]!) } : { faceUp: false })),
    ),
    available: availableStones(s),
    discarded: s.discarded.map((id) => ({ id, halves: pair(s.stones[id]!) })),
    seats,
    supercrystals: perColour((c) => s.supercrystals[c]),
    talismans: { used: s.talismans.map((x) => ({ player: x.player, colour: x.colour })), left: TALISMANS - s.talismans.length, colours: talismanColours(s) },
    supply: perColour((c) => s.supply[c]),
    scores: Object.fromEntries(seats.map((x) => [x.player, x.score.total])),
    turn: t
      ? {
          player: t.player,
          number: t.number,
          second: t.second,
          step: t.step,
          stone: t.stone,
          pending: t.pending.slice(),
          choices: t.choices ? t.choices.slice() : null,
          talismanAllowed: talismanBlock(s) === null && talismanColours(s).length > 0,
          mustDiscard: t.step === 'take' && !anyStoneFits(s),
        }
      : null,
    flip: s.flips
      ? {
          waitingFor: s.players.filter((p) => s.flips![p] === null),
          mine: viewer !== null && Object.hasOwn(s.flips, viewer) ? (s.flips[viewer]?.slice() ?? null) : null,
        }
      : null,
    eliminated: s.eliminated.slice(),
    forfeits: s.forfeits.slice(),
    thisTurn: viewLog(s.log.current),
    lastTurn: viewLog(s.log.last),
    outcome: s.outcome ? copyOutcome(s.outcome) : null,
  };
}

