// npm run ratings:rebuild — recomputes the all-time ratings from every finished game (DATABASE_URL
// or the embedded database): for games that ended before ratings existed. Safe while the bot runs.
import { openDatabase } from '../src/config.ts';
import { systemClock } from '../src/clock.ts';
import { rebuildRatings } from '../src/services/ratings.ts';

const db = await openDatabase();
try {
  const r = await rebuildRatings({ db: db.prisma, clock: systemClock });
  console.log(`rated ${r.games} finished game${r.games === 1 ? '' : 's'}: ${r.ratings} rating${r.ratings === 1 ? '' : 's'} (server, game, player)`);
} finally {
  await db.close();
}
