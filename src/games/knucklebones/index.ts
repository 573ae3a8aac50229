import { checkModule, type GameModule } from '../../bot/game-module.ts';
import { DIE_INFO, DIE_ITEMS } from './engine/dice.ts';
import { knucklebones as engine, type KnucklebonesMove, type KnucklebonesState, type KnucklebonesView } from './engine/index.ts';
import { describeMove } from './describe.ts';
import { ids } from './ids.ts';
import { present } from './present.ts';
import { dieItemId, routes } from './routes.ts';

/** Knucklebones: everything the platform needs of it, in one object (src/games/index.ts lists it). */
export const knucklebones: GameModule<KnucklebonesView, KnucklebonesMove> = {
  kind: engine.id,
  engine,
  title: engine.name,
  joinSubcommand: 'join',
  maxIntentOpponents: 5,
  points: true,
  items: DIE_ITEMS.map((d) => ({ id: dieItemId(d), ...DIE_INFO[d] })),
  itemFor: (move) => ((move as KnucklebonesMove).type === 'use-die' ? dieItemId((move as Extract<KnucklebonesMove, { type: 'use-die' }>).die) : null),
  present,
  describeMove,
  ids,
  routes,
  /** `npm run replay`: every die, recomputed from the seed, in the order it was rolled. */
  replayNotes: (states) =>
    (states as KnucklebonesState[]).flatMap((st, i) => {
      const prev = states[i - 1] as KnucklebonesState | undefined;
      if (prev && prev.roll === st.roll && prev.turn === st.turn) return [];
      return [`after ${i} move(s): ${st.turn ? `${st.turn} to place ${st.roll}` : 'game over'}`];
    }),
  channelPermissions: [{ permission: 'EmbedLinks', why: 'the Knucklebones board is an embed' }],
  howToPlay: [
    'Two players take turns. On your turn the bot rolls a die for you (it is in your turn DM and on the board): place it in one of your three columns that is not full.',
    'Placing a value knocks out every die of the same value in your opponent’s column of the same number.',
    'A column scores each die × how many dice of that value it holds: [4, 4, 2] = 8 + 8 + 2 = 18. Your score is the sum of your columns.',
    'The game ends when a player fills all nine cells; the higher score wins. Miss your turn’s deadline and you lose the game.',
    'In a cycle, **Use a die…** plays a die item from your inventory (each once per game, one per turn).',
  ].join('\n'),
};
checkModule(knucklebones as GameModule);
