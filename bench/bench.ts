// npm run bench — prints Stonehall's figures on this machine, on real Postgres (TEST_DATABASE_URL,
// default postgresql://postgres@127.0.0.1:5432/postgres), as Markdown, each goal of issue 14 beside
// its target. A few minutes on 2 cores.
// Options: --quick (smaller runs, for a smoke test); --only=engines,clicks,playmove,deadlines,burst,memory (sections);
// --procs=N: bot processes delivering the burst together (default 1); --pairs=N: the burst's matched pairs.
// Clicks only: --levels=1,50 (games at once, default 1,5,20,50), --steady=0 (skip the steady-state
// count of goal 2), --cpu-prof (profile the bot process, its CPU by component per level),
// --bot-node-args=a,b (more Node flags for the bot process, e.g. --perf-basic-prof for `perf record -p`),
// --floor-bot=0 (skip the floor bot: bench/floor-bot-main.ts, the least a move costs on this stack).
// BENCH_BOT_OUT=<file> (environment): every line the bot processes print is appended to that file
// (e.g. with --bot-node-args=--trace-gc or --trace-opt).
import os from 'node:os';
import { burstBench, printBurst } from './burst.ts';
import { concurrencyBench } from './concurrency.ts';
import { crystalliaBench, crystalliaRenderBench, printCrystalliaBench } from './crystallia.ts';
import { claimPlan, deadlineBench } from './db.ts';
import { engineThroughput } from './engines.ts';
import { keystoneBench, printKeystoneBench } from './keystone.ts';
import { krellstonesGameTime } from './krellstones.ts';
import { krellstonesTimerToBoard } from './krellstones-board.ts';
import { embeddedGrowth } from './embedded-growth.ts';
import { floorBotBench } from './floor-bot.ts';
import { startMemory } from './memory.ts';
import { playMoveBench } from './playmove.ts';
import { ms } from './stats.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newestProfile, profileByComponent } from './profile.ts';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const section = (name: string) => !only || only.includes(name);
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const out = (s = '') => console.log(s);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
out(`# Stonehall bench, ${new Date().toISOString()}`);
out(`Machine: ${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, Postgres on 127.0.0.1${quick ? ' (quick run)' : ''}; load average at start ${load()}`);

if (section('engines')) {
  out('\n## Engines: random self-play through legalMoves (moves chosen and applied per second, one core)');
  out('| engine | players | moves/s | games/s |\n| --- | ---: | ---: | ---: |');
  for (const e of engineThroughput(quick ? 1 : 2)) out(`| ${e.engine} | ${e.players} | ${e.movesPerSecond.toLocaleString('en')} | ${e.gamesPerSecond.toLocaleString('en')} |`);
  out();
  printKeystoneBench(keystoneBench(quick ? 1 : 4), out);

  out();
  printCrystalliaBench(crystalliaBench(quick ? 1 : 2), await crystalliaRenderBench(quick ? 5 : 20), out);

  out();
  const krell = krellstonesGameTime(quick ? 3 : 9);
  out('## Krellstones: engine time of a 4-player, 17-round game (rerolls, sideboards, yells), median of seeded games');
  out('| games | moves per game | engine ms per game | of which setup + apply | µs per move |\n| ---: | ---: | ---: | ---: | ---: |');
  out(`| ${krell.games} | ${krell.moves} | ${krell.ms.toFixed(1)} | ${krell.applyMs.toFixed(1)} | ${(krell.msPerMove * 1000).toFixed(0)} |`);
  const edit = await krellstonesTimerToBoard(quick ? 2 : 6);
  out(`\nA roll's timer due -> the board edited in place (the real bot and the emulator, 4 players, FAST): ${edit.steps} rolls, p50 ${ms(edit.ms.p50)}, p99 ${ms(edit.ms.p99)}.`);
}

if (section('clicks')) {
  out('\n## Goals 1 and 2. Button clicks: interaction received -> reply accepted, measured in the bot');
  out('Each game is a closed loop (its player clicks again as soon as the board is back), so "games" is also the clicks in flight.');
  out('A move counts in "moves/s" only once its DMs and board are delivered: the measurement ends when the outbox has nothing pending.');
  out('The emulator (Discord\'s rate limits on) and the bot (dist/main.js with the Node flags of package.json\'s start script, as `npm start` runs it) are processes of their own; this process only clicks over the emulator\'s test API and measures. Click times are the bot\'s own (its debug log line per interaction).');
  out('The floor is a 4-statement transaction (BEGIN, SELECT ... FOR UPDATE, conditional UPDATE, COMMIT) with plain pg and prepared statements on a pool of the bot\'s size (10), at the same concurrency, from the bench process.');
  out('"limited calls" are REST calls bound by Discord\'s global 50/s (all but interaction answers) per move, counted by the emulator; "CPU" is the bot process\'s per move (its own process.cpuUsage(), user + system of all its threads, read with its round-trip counts; /proc counts in 10 ms ticks).\n');
  out('"round trips" are the bot process\'s own to Postgres (every statement through node-postgres, counted in the bot: STONEHALL_SQL_STATS), from the first click until the outbox drained, idle work included.');
  out('The bot is young: it has handled only a 20-move warm-up game and the levels before each level, and V8 is still compiling its hot code during them (a share of its CPU that a bot running for days has long paid; `--levels=1,50,50,50,50` shows the same load on a warmer bot; docs/performance.md, the fifth session of 2026-11-28).\n');
  out('| games at once | moves | moves/s delivered | clicks/s answered | outbox drain after last click | limited calls / move | Postgres round trips / move | CPU / move | click p50 | click p99 | floor p50 | click p50 / floor |');
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  const levels = arg('levels')?.split(',').map(Number) ?? (quick ? [1, 10] : [1, 5, 20, 50]);
  const profDir = process.argv.includes('--cpu-prof') ? mkdtempSync(path.join(tmpdir(), 'stonehall-prof-')) : null;
  const botNodeArgs = arg('bot-node-args')?.split(',').filter(Boolean) ?? [];
  const withFloor = arg('floor-bot') !== '0';
  const { levels: results, steady, idleCpuMsPerSecond } = await concurrencyBench(levels, quick ? 4 : 8, Number(arg('steady') ?? 5), [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=500'] : []), ...botNodeArgs]);
  for (const r of results) {
    out(
      `| ${r.games} | ${r.clicks} | ${r.movesPerSecond.toFixed(0)} | ${r.clicksPerSecond.toFixed(0)} | ${ms(r.drainMs)} | ${r.limitedPerMove.toFixed(2)} | ${(r.sql.calls / Math.max(1, r.clicks)).toFixed(1)} | ${ms(r.cpuMsPerMove)} | ${ms(r.click.p50)} | ${ms(r.click.p99)} | ${ms(r.floor.p50)} | ${(r.click.p50 / r.floor.p50).toFixed(1)}× |`,
    );
  }
  // Issue 25's goals: the bot's CPU per delivered move (idle work counted) and click p99.
  for (const r of results) {
    const cpuGoal = r.games === 1 ? 5 : r.games === 50 ? 3 : null;
    const goals = [cpuGoal !== null ? `CPU / move ${ms(r.cpuMsPerMove)} (goal ≤ ${cpuGoal} ms: ${verdict(r.cpuMsPerMove <= cpuGoal)})` : null, r.games === 50 ? `click p99 ${ms(r.click.p99)} (goal ≤ 150 ms: ${verdict(r.click.p99 <= 150)})` : null].filter(Boolean);
    if (goals.length) out(`Issue 25 at ${r.games} game${r.games === 1 ? '' : 's'} at once: ${goals.join('; ')}; ${(r.sql.calls / Math.max(1, r.clicks)).toFixed(1)} Postgres round trips per move.`);
  }
  // The least a move costs a bot on this stack, measured the same way (bench/floor-bot-main.ts).
  // With --cpu-prof the floor bot is profiled too, so the component table can set the two side by side.
  const floorProfDir = profDir && withFloor ? mkdtempSync(path.join(tmpdir(), 'stonehall-floor-prof-')) : null;
  let floor: Awaited<ReturnType<typeof floorBotBench>> = [];
  if (withFloor) {
    floor = await floorBotBench(levels, quick ? 4 : 8, [...(floorProfDir ? ['--cpu-prof', `--cpu-prof-dir=${floorProfDir}`, '--cpu-prof-interval=500'] : []), ...botNodeArgs]);
    out('\nThe floor bot (bench/floor-bot-main.ts): a bare discord.js client with Stonehall\'s client options (src/bot/client-options.ts), built as it is and started with the same Node flags, that does the least a move needs: a 4-statement transaction on a pool of 10, the board (an embed and two rows of buttons) answered in place, a turn DM every other move (0.5 rate-limited calls a move). Same emulator, same levels and closed loops, a 20-move warm-up; its own CPU from the first click until its last DM is sent. What no change of Stonehall\'s can go below on this machine, at this age of the process:\n');
    out('| games at once | floor bot CPU / move | of which kernel | floor bot click p50 | floor bot click p99 | Stonehall CPU / move | Stonehall / floor bot |');
    out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    // The same levels in the same order (a level may repeat: --levels=1,50,50).
    for (const [i, f] of floor.entries()) {
      const r = results[i]!;
      out(`| ${f.games} | ${ms(f.cpuMsPerMove)} | ${ms(f.systemMsPerMove)} | ${ms(f.click.p50)} | ${ms(f.click.p99)} | ${ms(r.cpuMsPerMove)} | ${(r.cpuMsPerMove / f.cpuMsPerMove).toFixed(2)}× |`);
    }
    out('(The floor bot sends its DMs as soon as the click is answered, with no outbox giving way to clicks, so its click times are for scale only.)');
  }
  for (const r of results) {
    out(`\nThe bot's Postgres round trips per move at ${r.games} game${r.games === 1 ? '' : 's'} at once, by statement (${r.sql.calls} round trips, ${r.sql.statements} statements, ${r.clicks} moves; the caller is the most frequent sampled one):\n`);
    out('| per move | statement | sent by |\n| ---: | --- | --- |');
    for (const row of r.sql.rows) out(`| ${(row.calls / Math.max(1, r.clicks)).toFixed(2)} | \`${row.key.replace(/\|/g, '\\|').replace(/`/g, "'")}\` | ${row.caller.replace(/\|/g, '\\|')} |`);
  }
  const profile = profDir ? newestProfile(profDir) : null;
  if (profDir && !profile) out('\n(--cpu-prof: the bot wrote no profile)');
  if (profile) {
    out(`\nThe bot's CPU per move by component: each component's share of the profile's busy samples (\`node --cpu-prof\`, every 0.5 ms, self time of the innermost frame) times the bot's CPU per move (a sample's span is wall time, so on a busy machine the profile's own milliseconds overstate CPU; the profiler also adds some). "socket writes" overstates most: a thread that writes to Postgres on a saturated machine is often descheduled inside the write, and the samples taken meanwhile land on it; the kernel's real share is the system time printed below, and \`perf record -e cpu-clock\` (with --bot-node-args=--perf-basic-prof) samples only CPU actually used: ${profile}\n`);
    const cut = results.map((r) => profileByComponent(profile, r.windowUs[0], r.windowUs[1]));
    const names = [...new Set(cut.flatMap((c) => c.byComponent.map((x) => x.component)))];
    const share = (c: (typeof cut)[number], name: string) => (c.byComponent.find((x) => x.component === name)?.ms ?? 0) / Math.max(1e-9, c.busyMs);
    names.sort((a, b) => share(cut.at(-1)!, b) - share(cut.at(-1)!, a));
    // The floor bot's profile cut to its own window of the last level: what of each component a bare bot pays too.
    const floorProfile = floorProfDir ? newestProfile(floorProfDir) : null;
    const lastFloor = floor.at(-1);
    const floorCut = floorProfile && lastFloor ? profileByComponent(floorProfile, lastFloor.windowUs[0], lastFloor.windowUs[1]) : null;
    const floorCell = (name: string) => (floorCut && lastFloor ? ` ${(share(floorCut, name) * lastFloor.cpuMsPerMove).toFixed(2)} ms (${(share(floorCut, name) * 100).toFixed(0)}%) |` : '');
    for (const x of floorCut?.byComponent ?? []) if (!names.includes(x.component)) names.push(x.component);
    if (floorCut) out(`\nThe last column is the floor bot at ${lastFloor!.games} games, its own profile cut the same way.\n`);
    out(`| component | ${results.map((r) => `${r.games} game${r.games === 1 ? '' : 's'}`).join(' | ')} |${floorCut ? ` floor bot, ${lastFloor!.games} games |` : ''}\n| --- |${results.map(() => ' ---: |').join('')}${floorCut ? ' ---: |' : ''}`);
    for (const name of names) out(`| ${name} | ${cut.map((c, i) => `${(share(c, name) * results[i]!.cpuMsPerMove).toFixed(2)} ms (${(share(c, name) * 100).toFixed(0)}%)`).join(' | ')} |${floorCell(name)}`);
    out(`| **CPU per move (the bot's clock)** | ${results.map((r) => `**${ms(r.cpuMsPerMove)}**`).join(' | ')} |${floorCut ? ` **${ms(lastFloor!.cpuMsPerMove)}** |` : ''}`);
    // To cut the same profile further by function (each level's window on the profile's clock, µs).
    out(`\nThe levels' windows in the profile (µs): ${results.map((r) => `${r.games}: ${r.windowUs[0]}-${r.windowUs[1]}`).join(', ')}.`);
  }
  out(`\nThe bot's CPU while idle (no clicks, the outbox drained), from its own clock: ${idleCpuMsPerSecond[0].toFixed(2)} ms a second in the 15 s after the load (V8's memory reducer collecting the load's garbage), then ${idleCpuMsPerSecond[1].toFixed(2)} ms a second in the next 15 s (its ticks, timers and heartbeat: what an idle bot costs). A level's CPU per move counts it for as long as the level lasts (the 1-game level's outbox drain is about 5 s).`);
  out(`\nThe bot's CPU per move in the kernel (system time: its socket writes and reads to Postgres and the emulator, timers, memory) and in the process (user time): ${results.map((r) => `${r.games} game${r.games === 1 ? '' : 's'} ${ms(r.systemMsPerMove)} + ${ms(r.cpuMsPerMove - r.systemMsPerMove)}`).join(', ')}.`);
  out(`\nThe emulator process's CPU per move, for scale: ${results.map((r) => `${r.games} games ${ms(r.emulatorCpuMsPerMove)}`).join(', ')}.`);
  const one = results[0]!;
  out(`Click p50 at 1 game / plain-pg floor p50: ${(one.click.p50 / one.floor.p50).toFixed(1)}×, for scale only: a click crosses HTTP and the gateway to the emulator's process and back, the floor does not; goal 1 is measured on playMove (the next section).`);
  const calls = Math.max(...results.map((r) => r.limitedPerMove));
  out(`Goal 2, rate-limited calls per delivered move (board clicks), whole short games in closed loops: ${calls.toFixed(2)}: each game also pays its players' first DM channel and first retire edit, its game-over DMs and result message, and saves the turn DMs a newer turn of the same player superseded before they were sent.`);
  if (steady) {
  const perMove = steady.calls / steady.moves;
  out(`Goal 2 in steady state (moves 3-14 of ${steady.games} games, every player a board mover, each move once the previous one's DM is out): ${steady.calls} calls for ${steady.moves} moves = ${perMove.toFixed(2)} per move (target 1: ${verdict(perMove <= 1)}); by route: ${Object.entries(steady.byRoute).map(([r, n]) => `${r} ${n}`).join(', ')}. At Discord's 50/s: ${(50 / perMove).toFixed(0)} moves/s.`);
  }
  out(`Load average after the clicks: ${load()}.`);
}

if (section('playmove')) {
  out('\n## Goal 1. playMove (one Knucklebones move through the service, no Discord) against the floor, one at a time, interleaved');
  out('The floor: BEGIN, SELECT ... FOR UPDATE, conditional UPDATE, COMMIT with plain pg and prepared statements, on the same pool. CPU is this process\'s (the service, Prisma, pg).\n');
  const r = await playMoveBench(quick ? 100 : 400);
  out('| moves | playMove p50 | playMove p99 | floor p50 | floor p99 | p50 / floor (goal 1: ≤ 3×) | CPU per move | CPU per floor | CPU ratio (goal 1: ≤ 3×) |');
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  out(`| ${r.moves} | ${ms(r.move.p50)} | ${ms(r.move.p99)} | ${ms(r.floor.p50)} | ${ms(r.floor.p99)} | ${(r.move.p50 / r.floor.p50).toFixed(1)}× (${verdict(r.move.p50 / r.floor.p50 <= 3)}) | ${ms(r.moveCpuMs)} | ${ms(r.floorCpuMs)} | ${(r.moveCpuMs / r.floorCpuMs).toFixed(1)}× |`);
  out(`Load average: ${load()}.`);
}

if (section('deadlines')) {
  out('\n## Goal 3. Deadlines: N turn deadlines due at once, each a forfeit with its two game-over DMs written');
  out('"one by one" is each job claimed and handled in its own transaction (the sweep before batching, and its fallback now).\n');
  out('| due deadlines | sweep | fired | DMs written | per deadline |\n| ---: | --- | ---: | ---: | ---: |');
  const sizes = quick ? [100, 1000] : [100, 1000, 10_000];
  const single = await deadlineBench(100, true);
  out(`| 100 | one by one | ${single.fired} | ${single.dms} | ${ms(single.ms / Math.max(1, single.fired))} (${ms(single.ms)} in all) |`);
  const batched = [];
  for (const n of sizes) {
    const r = await deadlineBench(n);
    batched.push(r);
    out(`| ${n.toLocaleString('en')} | batched | ${r.fired.toLocaleString('en')} | ${r.dms.toLocaleString('en')} | ${ms(r.ms / Math.max(1, r.fired))} (${ms(r.ms)} in all) |`);
  }
  const biggest = batched[batched.length - 1]!;
  const ratio = biggest.ms / single.ms;
  out(`\nGoal 3, ${biggest.due.toLocaleString('en')} deadlines batched / 100 one by one: ${ratio.toFixed(1)}× (target < 10× for 10,000: ${biggest.due === 10_000 ? verdict(ratio < 10) : 'not run in --quick'}).`);
  const plan = await claimPlan(quick ? 10_000 : 100_000);
  out(`The claim among ${plan.pending.toLocaleString('en')} pending future jobs: ${ms(plan.claimMs)}, ${plan.usesIndex ? 'an index scan' : 'NOT an index scan'}. Load average: ${load()}.`);
}

if (section('burst')) {
  const pairs = Number(process.argv.find((a) => a.startsWith('--pairs='))?.slice(8) ?? (quick ? 100 : 1000));
  const procs = Number(process.argv.find((a) => a.startsWith('--procs='))?.slice(8) ?? 1);
  out(`\n## Goal 4. Battle Phase burst: ${pairs.toLocaleString('en')} matched pairs, the emulator enforcing Discord's limits`);
  out('The emulator, the bot and this load driver are separate processes. The Rest Phase\'s intents are stated through the services; the phase opens as the schedule opens it; "all delivered" runs from the phase start until the outbox has nothing pending.');
  out('The floor is the larger of the global one (requests that spent the 50/s budget / 50) and the per-channel one (the busiest game channel\'s boards at 5 per 5 s): the server has enough game channels for the global one to bind.\n');
  printBurst(await burstBench(pairs, procs), out);
  out(`Load average: ${load()}.`);
}

if (section('memory')) {
  out('\n## Goal 5. Memory: idle resident set of the bot process as `npm start` runs it, the median of 5 readings from 5 s after it started');
  out('| how | active games | RSS (goal 5: < 150 MiB) | start to banner |\n| --- | ---: | ---: | ---: |');
  for (const [database, games] of [['postgres', 0], ['postgres', quick ? 1000 : 10_000], ['embedded', 0], ['bot-alone', 0]] as const) {
    const m = await startMemory(database, games);
    out(`| ${m.label} | ${m.games.toLocaleString('en')} | ${m.rssMiB.toFixed(0)} MiB (${verdict(m.rssMiB < 150)}) | ${ms(m.startMs)} |`);
  }
  // The embedded default as it is played (issue 23, point 18): does it level off or keep growing?
  out('\nEmbedded default (`npm start`, PGlite and the emulator in-process) as practice games are played through the test API (bench/embedded-growth.ts):');
  out('The parts are the process\'s own report after a full collection (STONEHALL_MEMORY_STATS=1): what is kept, not garbage waiting.');
  out('| games played | RSS by games played | after the last game: V8 heap used, PGlite\'s WebAssembly memory, native heap | emulator records (messages, interactions) | files the emulator holds |\n| --- | --- | --- | --- | ---: |');
  for (const game of ['knucklebones', 'crystallia'] as const) {
    const n = quick ? 4 : game === 'crystallia' ? 40 : 100;
    const samples = await embeddedGrowth(n, Math.max(1, n / 4), () => {}, game);
    const last = samples.at(-1)!;
    const p = last.parts;
    const parts = p ? `${p.heapUsed.toFixed(0)}, ${p.pgliteWasm?.toFixed(0) ?? '-'}, ${p.nativeHeap?.toFixed(0) ?? '-'} MiB` : '-';
    const records = p?.emulator ? `${p.emulator.messages}, ${p.emulator.interactions}` : '-';
    out(`| ${n} ${game} | ${samples.map((x) => `${x.games}: ${x.rssMiB.toFixed(0)}`).join(', ')} MiB | ${parts} | ${records} | ${last.files} (${last.fileMiB.toFixed(1)} MiB, on disk) |`);
  }
  out(`Load average: ${load()}.`);
}
out();
