// npm run bench — prints Stonehall's figures on this machine, on real Postgres (TEST_DATABASE_URL,
// default postgresql://postgres@127.0.0.1:5432/postgres), as Markdown. A few minutes on 2 cores.
// Options: --quick (smaller runs, for a smoke test).
import os from 'node:os';
import { concurrencyBench } from './concurrency.ts';
import { crystalliaBench, crystalliaRenderBench, printCrystalliaBench } from './crystallia.ts';
import { sweepBench } from './db.ts';
import { engineThroughput } from './engines.ts';
import { keystoneBench, printKeystoneBench } from './keystone.ts';
import { krellstonesGameTime } from './krellstones.ts';
import { krellstonesTimerToBoard } from './krellstones-board.ts';
import { botMemory } from './memory.ts';
import { ms } from './stats.ts';

const quick = process.argv.includes('--quick');
const out = (s = '') => console.log(s);
out(`# Stonehall bench, ${new Date().toISOString()}`);
out(`Machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, Postgres on 127.0.0.1${quick ? ' (quick run)' : ''}`);

out('\n## Engines: random self-play through legalMoves (moves chosen and applied per second, one core)');
out('| engine | players | moves/s | games/s |\n| --- | ---: | ---: | ---: |');
for (const e of engineThroughput(quick ? 1 : 2)) out(`| ${e.engine} | ${e.players} | ${e.movesPerSecond.toLocaleString('en')} | ${e.gamesPerSecond.toLocaleString('en')} |`);
out();
printKeystoneBench(keystoneBench(quick ? 1 : 4), out);

out();
const krell = krellstonesGameTime(quick ? 3 : 9);
out('## Krellstones: engine time of a 4-player, 17-round game (rerolls, sideboards, yells), median of seeded games');
out('| games | moves per game | engine ms per game | of which setup + apply | µs per move |\n| ---: | ---: | ---: | ---: | ---: |');
out(`| ${krell.games} | ${krell.moves} | ${krell.ms.toFixed(1)} | ${krell.applyMs.toFixed(1)} | ${(krell.msPerMove * 1000).toFixed(0)} |`);
const edit = await krellstonesTimerToBoard(quick ? 2 : 6);
out(`\nA roll's timer due -> the board edited in place (the real bot and the emulator, 4 players, FAST): ${edit.steps} rolls, p50 ${ms(edit.ms.p50)}, p99 ${ms(edit.ms.p99)}.`);

out();
printCrystalliaBench(crystalliaBench(quick ? 1 : 2), crystalliaRenderBench(quick ? 5 : 20), out);

out('\n## Button clicks: interaction received -> reply accepted, measured in the bot');
out('Each game is a closed loop (its player clicks again as soon as the board is back), so "games" is also the clicks in flight.');
out('The floor is one bare transaction with one read and one conditional write on the bot\'s pool, at the same concurrency.\n');
out('| games at once | clicks | moves/s | click p50 | click p99 | floor p50 | floor p99 | p50 / floor | p99 / floor |');
out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const levels = quick ? [1, 10, 50] : [1, 5, 10, 20, 50, 100, 200];
const results = await concurrencyBench(levels, quick ? 4 : 8);
for (const r of results) {
  out(
    `| ${r.games} | ${r.clicks} | ${r.movesPerSecond.toFixed(0)} | ${ms(r.click.p50)} | ${ms(r.click.p99)} | ${ms(r.floor.p50)} | ${ms(r.floor.p99)} | ${(r.click.p50 / r.floor.p50).toFixed(1)}× | ${(r.click.p99 / r.floor.p99).toFixed(1)}× |`,
  );
}
const under = results.filter((r) => r.click.p99 <= 100);
const best = under.sort((a, b) => b.movesPerSecond - a.movesPerSecond)[0];
out(`\nThroughput while p99 stays under 100 ms: ${best ? `${best.movesPerSecond.toFixed(0)} moves/s (at ${best.games} games at once)` : 'none of the levels kept p99 under 100 ms'}.`);

out('\n## Deadline sweep: 100 due deadlines (each a forfeit with DMs) among N pending future jobs');
out('| pending jobs | claim query | plan | sweep of the 100 due | per job |\n| ---: | ---: | --- | ---: | ---: |');
for (const r of await sweepBench(quick ? [10_000] : [10_000, 100_000, 1_000_000])) {
  out(`| ${r.pending.toLocaleString('en')} | ${ms(r.claimMs)} | ${r.usesIndex ? 'index scan' : 'NOT an index scan'} | ${ms(r.sweepMs)} | ${ms(r.sweepMs / Math.max(1, r.fired))} |`);
}

out('\n## Memory: resident set of the bot process (src/main.ts) with N active games in its database');
out('| active games | RSS |\n| ---: | ---: |');
for (const n of quick ? [0, 1000] : [0, 10_000]) {
  const m = await botMemory(n);
  out(`| ${m.games.toLocaleString('en')} | ${m.rssMiB.toFixed(0)} MiB |`);
}
out();
