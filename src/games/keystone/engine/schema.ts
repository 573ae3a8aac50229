import { z } from 'zod';
import { outcomeSchema } from '../../../kernel/checks.ts';
import { rngStateSchema } from '../../../kernel/rng.ts';
import { CARD_IDS, DECK_SIZE } from './data.ts';
import { isLegalLine } from './lines.ts';

export { outcomeSchema } from '../../../kernel/checks.ts';

/** Tricks in a game, games in a match, cards dealt to each player. */
export const TRICKS = 12;
export const GAMES = 2;
export const HAND_SIZE = 12;
export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 4;

export const cardIdSchema = z.enum(CARD_IDS);

const playerIdSchema = z.string().min(1);
const seatSchema = z.number().int().min(0).max(MAX_PLAYERS - 1);

/** Where a won card goes: on top of the winner's line with this 0-based index, or as a new line. */
export const targetSchema = z.union([z.number().int().min(0).max(DECK_SIZE), z.literal('new')]);
export type Target = z.infer<typeof targetSchema>;

export const placementSchema = z.object({ card: cardIdSchema, line: targetSchema }).strict();
export type Placement = z.infer<typeof placementSchema>;

/**
 * - `play`: play a card of your hand to the trick.
 * - `place`: the trick winner places one waiting won card on top of one of their lines, or as a new line.
 * - `place-all`: the trick winner places every waiting card at once, in the order given (each
 *   placement sees the lines as the earlier ones left them, so `line` may name a line started
 *   earlier in the list); all or nothing.
 * - `auto-place`: the trick winner lets the engine's Auto-place rule place every waiting card.
 */
export const moveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('play'), card: cardIdSchema }).strict(),
  z.object({ type: z.literal('place'), card: cardIdSchema, line: targetSchema }).strict(),
  z.object({ type: z.literal('place-all'), placements: z.array(placementSchema).min(1).max(MAX_PLAYERS) }).strict(),
  z.object({ type: z.literal('auto-place') }).strict(),
]);
export type KeystoneMove = z.infer<typeof moveSchema>;

/** No options; strict so unknown options are refused, and it defaults to {}. */
export const optionsSchema = z.object({}).strict().default({});
export type KeystoneOptions = z.infer<typeof optionsSchema>;

/** A finished trick as everyone saw it: the cards in play order (from the leader, clockwise) and its winner. */
export const trickRecordSchema = z
  .object({
    game: z.number().int().min(1).max(GAMES),
    trick: z.number().int().min(1).max(TRICKS),
    leader: seatSchema,
    cards: z.array(cardIdSchema).min(MIN_PLAYERS).max(MAX_PLAYERS),
    winner: seatSchema,
  })
  .strict();
export type TrickRecord = z.infer<typeof trickRecordSchema>;

/**
 * The stored state (JSON in Postgres, validated with this schema on load). Everything per player
 * is an array indexed by seat (the order of `players`, which is the clockwise order of play).
 *
 * Every one of the 53 cards is in exactly one place: a hand, `undealt` (out of play this game,
 * seen by nobody), `played` (the trick in play), `pending` (won, waiting to be placed) or a line.
 */
export const stateSchema = z
  .object({
    players: z.array(playerIdSchema).min(MIN_PLAYERS).max(MAX_PLAYERS),
    rng: rngStateSchema,
    /** 1 or 2. */
    game: z.number().int().min(1).max(GAMES),
    /** The trick being played, or (while placing) the trick just won: 1-12. */
    trick: z.number().int().min(1).max(TRICKS),
    /** `play`: a card is awaited from `turn`; `place`: `turn` (the trick winner) places `pending`; `over`. */
    phase: z.enum(['play', 'place', 'over']),
    /** Each seat's hand, in canonical card order. */
    hands: z.array(z.array(cardIdSchema).max(HAND_SIZE)),
    /** Cards not dealt this game: out of play, never shown to anyone. */
    undealt: z.array(cardIdSchema),
    /** The seat that leads (led) the current trick. */
    leader: seatSchema,
    /** The seat whose input is awaited (the next to play, or the trick winner while placing). */
    turn: seatSchema,
    /** The trick in play, in play order: card i was played by seat (leader + i) mod players. */
    played: z.array(cardIdSchema).max(MAX_PLAYERS),
    /** Won cards waiting to be placed by `turn` (phase `place`), in play order. */
    pending: z.array(cardIdSchema).max(MAX_PLAYERS),
    /** Each seat's lines of the current game, in the order they were started; each bottom to top. */
    lines: z.array(z.array(z.array(cardIdSchema).min(1))),
    /** The last finished trick of the running game; null before its first. */
    lastTrick: trickRecordSchema.nullable(),
    /** Final scores of finished games, each indexed by seat. */
    gameScores: z.array(z.array(z.number().int())).max(GAMES),
    /**
     * The final lines of each finished game, by seat (public): game 1's lines are dealt away when
     * game 2 starts, and the board keeps showing how game 1 was scored. One entry per `gameScores`.
     */
    finishedLines: z.array(z.array(z.array(z.array(cardIdSchema).min(1)))).max(GAMES),
    /** Seats that forfeited (player ids, in the order they forfeited); the autopilot plays them. */
    out: z.array(playerIdSchema),
    outcome: outcomeSchema.nullable(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const issue = (message: string, path: (string | number)[] = []) => ctx.addIssue({ code: 'custom', message, path });
    const n = s.players.length;
    if (new Set(s.players).size !== n) issue('players must be distinct', ['players']);
    if (s.hands.length !== n) issue('one hand per seat', ['hands']);
    if (s.lines.length !== n) issue('one list of lines per seat', ['lines']);
    if (s.leader >= n) issue('leader must be a seat', ['leader']);
    if (s.turn >= n) issue('turn must be a seat', ['turn']);
    if (s.played.length >= n && s.phase === 'play') issue('a full trick is resolved at once', ['played']);
    if (s.out.some((p) => !s.players.includes(p)) || new Set(s.out).size !== s.out.length) issue('out must list distinct players', ['out']);
    if (s.gameScores.some((g) => g.length !== n)) issue('one score per seat', ['gameScores']);
    if (s.finishedLines.length !== s.gameScores.length || s.finishedLines.some((g) => g.length !== n)) issue('one list of final lines per seat of each finished game', ['finishedLines']);
    s.finishedLines.forEach((g, i) =>
      g.forEach((lines, seat) =>
        lines.forEach((line, j) => {
          if (!isLegalLine(line)) issue('a line must run ascending or descending', ['finishedLines', i, seat, j]);
        }),
      ),
    );
    if ((s.phase === 'over') !== (s.outcome !== null)) issue('outcome must be set exactly when the game is over', ['outcome']);
    if (s.outcome && !s.outcome.winners.every((w) => s.players.includes(w))) issue('winners must be players', ['outcome', 'winners']);
    if (s.lastTrick && (s.lastTrick.game !== s.game || s.lastTrick.cards.length !== n || s.lastTrick.leader >= n || s.lastTrick.winner >= n)) issue('last trick must fit the table', ['lastTrick']);

    // Every card in exactly one place.
    const seen = new Map<string, number>();
    const all = [...s.hands.flat(), ...s.undealt, ...s.played, ...s.pending, ...s.lines.flat(2)];
    for (const id of all) seen.set(id, (seen.get(id) ?? 0) + 1);
    if (all.length !== DECK_SIZE || seen.size !== DECK_SIZE) issue('every one of the 53 cards must be in exactly one place');
    if (s.undealt.length !== DECK_SIZE - n * HAND_SIZE) issue('the undealt cards are the rest of the deck', ['undealt']);

    if (s.phase === 'play') {
      if (s.lastTrick && s.lastTrick.trick !== s.trick - 1) issue('the last trick is the one before', ['lastTrick']);
      if (s.pending.length !== 0) issue('no waiting cards while a trick is played', ['pending']);
      if (s.turn !== (s.leader + s.played.length) % n) issue('turn must follow the leader clockwise', ['turn']);
      // Hands shrink by one per trick; the seats that played this trick hold one card fewer.
      s.hands.forEach((h, seat) => {
        const playedThisTrick = (seat - s.leader + n) % n < s.played.length ? 1 : 0;
        if (h.length !== HAND_SIZE - (s.trick - 1) - playedThisTrick) issue('hand size must match the trick', ['hands', seat]);
      });
    }
    if (s.phase === 'place') {
      if (s.pending.length === 0) issue('placing needs waiting cards', ['pending']);
      if (s.played.length !== 0) issue('no trick in play while placing', ['played']);
      if (!s.lastTrick || s.lastTrick.winner !== s.turn || s.lastTrick.trick !== s.trick || s.lastTrick.game !== s.game) issue('the placing seat is the winner of the last trick', ['lastTrick']);
      s.hands.forEach((h, seat) => {
        if (h.length !== HAND_SIZE - s.trick) issue('hand size must match the trick', ['hands', seat]);
      });
    }
    s.lines.forEach((lines, seat) =>
      lines.forEach((line, i) => {
        if (!isLegalLine(line)) issue('a line must run ascending or descending', ['lines', seat, i]);
      }),
    );
  });

export type KeystoneState = z.infer<typeof stateSchema>;
