import { checkModule, type GameModule } from '../../bot/game-module.ts';
import { krellstonesAssets } from './assets.ts';
import { collectionRoutes } from './collection-routes.ts';
import { LIMITS, YELL } from './data.ts';
import { krellstones as engine, type KrellstonesMove, type KrellstonesState, type KrellstonesView } from './engine/index.ts';
import { describeMove } from './describe.ts';
import { ids } from './ids.ts';
import { checkIntent, lobby, prepareMatch, preparePractice } from './lobby.ts';
import { lobbyPanel } from './lobby-panel.ts';
import { present } from './present.ts';
import { replayNotes } from './replay.ts';
import { routes } from './routes.ts';

/** Krellstones: 2-4 players bring their own stones to a host's mat (src/games/index.ts lists it). */
export const krellstones: GameModule<KrellstonesView, KrellstonesMove> = {
  kind: engine.id,
  engine,
  title: engine.name,
  joinSubcommand: 'join',
  maxIntentOpponents: 3,
  intentOption: 'host',
  startSubcommand: 'start',
  // Three choices in a row left to run out forfeit a seat: their time ran out, they did not give up.
  // (A player whose third expiry was due at the same step is forfeited with them, their count at two.)
  timedOut: (state) => {
    const s = state as KrellstonesState;
    const gone = new Set([...s.out, ...(s.outcome?.forfeits ?? []), ...(s.outcome?.forfeited ? [s.outcome.forfeited] : [])]);
    const expired = Object.entries(s.seats).filter(([, seat]) => seat.expiries >= LIMITS.expiriesToForfeit).map(([p]) => p);
    if (expired.length === 0) return [];
    const alongside = Object.entries(s.seats).filter(([p, seat]) => gone.has(p) && seat.expiries === LIMITS.expiriesToForfeit - 1).map(([p]) => p);
    return [...expired, ...alongside];
  },
  points: false,
  // A reroll selection is secret until the rerolls are rolled: choosing moves no public message.
  secretMove: (move) => (move as KrellstonesMove).type === 'select',
  scoreLabel: 'Rounds won',
  assets: krellstonesAssets,
  lobby,
  lobbyPanel,
  prepareMatch,
  preparePractice,
  checkIntent,
  present,
  // The board says when the next automatic roll falls due.
  boardTimers: true,
  /** Forfeit is `/krellstones forfeit` only (the board keeps its rows for the round). */
  boardForfeit: false,
  describeMove,
  ids,
  routes,
  collectionRoutes,
  replayNotes,
  // The Pup's owner is pinged in the channel the moment the Master lands (besides the turn DM).
  channelNotices: ({ gameId, prev, next }) => {
    const before = (prev as KrellstonesState | null)?.windows ?? [];
    const after = (next as KrellstonesState).windows;
    return after
      .filter((p) => !before.includes(p))
      .map((p) => ({ content: `🐶 **PUP IN THE HANGAR** in Krellstones #${gameId}! <@${p}>, yell \`${YELL}\` now: the board's **Yell!** button or \`/krellstones yell\`.`, users: [p] }));
  },
  // Its board is text and buttons: seeing the channel and posting there (the platform's) is all it needs.
  channelPermissions: [],
  howToPlay: [
    '2-4 players, each with their own stones: 1 Pawn (4 sides, 1-10), 1 Dancer (5 sides, 5-42), 3 Krells (6 sides, 3-20) and 1 Master (20 sides, odd 1-67). Host with `/krellstones start` on one of your mats; others `/krellstones join host:@you`; everyone selects stones and is **ready**.',
    '**A round:** everyone rolls by themselves, one after the other. Effects, in order: **SPINS OUT** (two of your Krells show the same number: every stone showing it is discarded), **IN THE SWAMP** (everyone’s highest value is the same: discarded), **HAZE THE MASTER** (a Master below the sum of the left player’s Krells is discarded), **PAWNS UP** (all pawns equal or consecutive: each turns to its highest side), **BURY THE GHOST DANCER** (a Dancer on its lowest side: buried, back next round on its highest), **PAWN IS QUEEN** (a pawn showing its owner’s highest value: the lowest sum wins the round).',
    '**Pup in the Hangar:** your Master rolls its lowest side: yell `KRELLSTONES!` exactly (the Yell! button or `/krellstones yell`) within the window and it turns to its highest (**CAPTAIN ON DECK**).',
    '**Rerolls:** everyone secretly picks stones still in play to reroll (**Choose rerolls**, then **Ready**); effects resolve again. **Scoring:** the sum of your stones in play; below 23 or above 123 busts. The highest sum that does not bust wins the round (if all but the last bust, the last wins). Between rounds you may swap stones from your sideboard.',
    'Most rounds won wins the game; equal counts draw. **Running out:** a reroll or swap choice left to run out rerolls (or swaps) nothing, but **three choices in a row left to run out forfeit your seat** (with two players you lose; with more the autopilot plays on and you rank last). The board and your DM warn you after the first and the second.',
  ].join('\n'),
};
checkModule(krellstones as GameModule);
