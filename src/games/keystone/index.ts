import { checkModule, type GameModule } from '../../bot/game-module.ts';
import { keystone as engine, type KeystoneMove, type KeystoneView } from './engine/index.ts';
import { describeMove } from './describe.ts';
import { ids } from './ids.ts';
import { present } from './present.ts';
import { replayNotes } from './replay.ts';
import { routes } from './routes.ts';

/** Keystone: 3-4 players, two games of 12 tricks, personal lines and the Sun (src/games/index.ts lists it). */
export const keystone: GameModule<KeystoneView, KeystoneMove> = {
  kind: engine.id,
  engine,
  title: engine.name,
  joinSubcommand: 'join',
  maxIntentOpponents: 3,
  points: true,
  present,
  describeMove,
  ids,
  routes,
  replayNotes,
  channelPermissions: [{ permission: 'EmbedLinks', why: 'the Keystone board is an embed' }],
  howToPlay: [
    '3 or 4 players, two games of 12 tricks; 12 cards each from 53: five colours numbered 1-10 (🟥7 is red 7) and three God cards, shown ✨= (the = because on a line a God card equals the card below it). Your hand is yours alone: **My hand** on the board, or your turn DM.',
    '**Tricks:** the leader plays any card; the others must follow the led colour if they can. A God card may always be played; if one leads, anything goes. The first God card played wins the trick, else the highest card of the led colour. The winner leads next.',
    '**Lines:** the winner places every won card, one at a time or all at once, on top of one of their lines where it fits, or as a new line. A line runs ascending (↑) or descending (↓), equal numbers allowed; its first two different numbers fix the direction. A God card counts as the card below it (else above it, else 0).',
    '**Keystones:** 1→1, 2→0, 3→2, 4→-2, 5→0, 6→3, 7→0, 8→1, 9→0, 10→6. At the end of a game your longest line(s) are the Sun ☀️ and score no keystones; every other line scores its keystones; every line costs 3.',
    'The second game starts with whoever won the last trick of the first. Highest total after two games wins; ties share. Miss a deadline and the autopilot plays your seat for the rest of the match (you rank last).',
  ].join('\n'),
};
checkModule(keystone as GameModule);
