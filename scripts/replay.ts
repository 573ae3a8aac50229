// npm run replay -- <gameId>      Re-plays a finished game from its seed and move log and checks
// that the seed matches the commitment shown on the board and that every roll (or deal) and the
// final state come out the same. Uses DATABASE_URL (or the embedded database).
import { games } from '../src/games/index.ts';
import { openDatabase } from '../src/config.ts';
import { systemClock } from '../src/clock.ts';
import { silentLogger } from '../src/log.ts';
import { verifyGame } from '../src/services/replay.ts';

const id = Number(process.argv[2]);
if (!Number.isInteger(id) || id < 1) {
  console.error('usage: npm run replay -- <gameId>');
  process.exit(2);
}
const db = await openDatabase();
try {
  const game = await db.prisma.game.findUnique({ where: { id } });
  if (!game) throw new Error(`no game #${id}`);
  if (game.status !== 'finished') {
    console.log(`game #${id} is still in progress: its seed stays secret until it ends (commitment ${game.seedCommitment})`);
    process.exit(0);
  }
  const report = await verifyGame({ db: db.prisma, clock: systemClock, log: silentLogger, games }, id);
  console.log(`game #${id} (${report.kind}), seed ${game.seed}`);
  console.log(`commitment sha256(seed) = ${game.seedCommitment}: ${report.commitmentOk ? 'matches' : 'DOES NOT MATCH'}`);
  // What the game says about its random draws (dice, deals), recomputed from the seed.
  for (const line of games.get(report.kind)?.replayNotes?.(report.states) ?? []) console.log(line);
  console.log(`replayed ${report.moves} move(s): final state ${report.stateOk ? 'matches' : 'DOES NOT MATCH'} the stored one`);
  process.exit(report.commitmentOk && report.stateOk ? 0 : 1);
} finally {
  await db.close();
}
