import { checkModule, type GameModule } from '../../bot/game-module.ts';
import { crystallia as engine, type CrystalliaMove, type CrystalliaView } from './engine/index.ts';
import { describeMove } from './describe.ts';
import { ids } from './ids.ts';
import { present } from './present.ts';
import { routes } from './routes.ts';

/** Crystallia: everything the platform needs of it, in one object (src/games/index.ts lists it). */
export const crystallia: GameModule<CrystalliaView, CrystalliaMove> = {
  kind: engine.id,
  engine,
  title: engine.name,
  joinSubcommand: 'join',
  maxIntentOpponents: 3,
  points: true,
  present,
  describeMove,
  // The board shows the last turn itself ("Last turn"); the turn DM gets every turn since the reader's.
  showsRecent: { board: true },
  ids,
  routes,
  channelPermissions: [{ permission: 'AttachFiles', why: "Crystallia's board is a picture" }],
  howToPlay: [
    '2-4 players take stones from the **pyramid** (only the glowing face-up ones are available) and lay them on the 6x9 **Board of Opportunity** (rows A-F, columns 1-9).',
    'Each covered coloured square gives you its crystal. Then: a stone touching no other (even diagonally) is **isolated**: one crystal of one of its colours. Otherwise every straight row or column of 2+ halves of one colour through it (yellow is wild, at least two stones) pays its length - 1. A run of 5 is not allowed; making a run of exactly 4 gives you a **second turn** (never a third).',
    'Covered abilities: **Move** another stone, **Rotate** another stone about one half (both optional), **Extra Turn** (mandatory). Instead of a stone you may use a **talisman**: one crystal of a colour no talisman took, unless the turn before yours used one.',
    'Scoring: 1 point per crystal up to 9 of a colour, −1 beyond; 13 of a colour puts you out. Black crystals (empty supply, or 6+ crystals in one turn) −1; a supercrystal (first to 9 of a colour, or 5 on a flipped platform) +2. Advanced Mode: flipped platforms score 2 per crystal but empty at the sixth.',
    'Play: **Take your turn** on the board → stone → square → direction → abilities → preview → **Confirm**. Typed: `/crystallia place stone:7 at:C4 dir:right` (#7 is the number under the stone in the picture).',
  ].join('\n'),
};
checkModule(crystallia as GameModule);
