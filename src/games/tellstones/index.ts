import { checkModule, type GameModule } from '../../bot/game-module.ts';
import { tellstones as engine, type TellstonesMove, type TellstonesView } from './engine/index.ts';
import { describeMove } from './describe.ts';
import { ids } from './ids.ts';
import { present } from './present.ts';
import { routes } from './routes.ts';

/** Tellstones: King's Gambit, with King's Circle and Fearless Vanguard (src/games/index.ts lists it). */
export const tellstones: GameModule<TellstonesView, TellstonesMove> = {
  kind: engine.id,
  engine,
  title: engine.name,
  joinSubcommand: 'challenge',
  maxIntentOpponents: 1,
  points: true,
  practiceOptions: (bots) => (bots === 3 ? { variant: 'kings-circle' } : {}),
  present,
  describeMove,
  // The board lists the recent log itself ("Recently").
  showsRecent: { board: true },
  // King's Circle: seats alternate between the two teams (A1 B1 A2 B2).
  teams: (players) => [0, 1].map((side) => players.filter((_, i) => i % 2 === side)).filter((t) => t.length > 0),
  ids,
  routes,
  channelPermissions: [{ permission: 'EmbedLinks', why: 'the Tellstones board is an embed' }],
  howToPlay: [
    'Seven stones with symbols; the first lies face up on the line. On your turn do one thing: **Place** a stone from the pool at an end, **Hide** a face-up stone, **Swap** two stones, **Peek** at a face-down stone (only you see it), **Challenge** your opponent to name a face-down stone, or **Boast** that you know them all.',
    'A right answer to a challenge scores for the one who answers, a wrong one for the challenger. A boast can be believed (a point for the boaster), doubted (name every face-down stone: all right wins the game, one wrong loses it) or countered.',
    'Three points win. **What do I know?** shows you, and only you, what you have peeked at.',
    'King’s Circle: four players in two teams (A1 & A2 against B1 & B2), shared points. Fearless Vanguard: each player brings a set, two lines.',
  ].join('\n'),
};
checkModule(tellstones as GameModule);
