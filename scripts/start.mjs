#!/usr/bin/env node
// npm start: makes sure the Prisma client is generated (first run on a fresh machine), builds
// src/main.ts into plain JavaScript (scripts/build.mjs, esbuild: under a second), then runs the
// bot in this very process: no tsx loader and no second Node process, which keeps memory and
// start-up low. Loads .env if present (Node 20.12+ has process.loadEnvFile).
// SIGTERM and SIGINT (systemd, Docker, pm2, Ctrl-C) reach the bot, which shuts down cleanly. npm
// forwards them to the command of the start script, which npm runs with `sh -c`: package.json's
// `exec node ...` makes that shell become node, so the signal reaches node and no shell can die of
// it and leave node orphaned and serving (tests/reliability/shutdown.test.ts).
// If the build cannot run, the bot runs from its TypeScript sources with tsx, as in development.
// package.json starts Node with --max-semi-space-size=2: V8's young generation capped at 2 MiB per
// semi-space instead of 16 takes about 20-25 MiB off an idle bot's RSS (docs/performance.md, goal 5);
// a bot allocates little per event, so the extra scavenges cost nothing measurable.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { pathToFileURL } from 'node:url';

const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs a Node child to its end, passing it every stop signal this process receives: a stop that
 * arrives while the Prisma client is generated or the bot built ends that step, and nothing keeps
 * running after this process is gone. Resolves with the child's exit code (128 + n if a signal ended it).
 */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env: process.env });
    const forward = (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const signal of signals) process.on(signal, forward);
    child.on('exit', (code, signal) => {
      for (const s of signals) process.off(s, forward);
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

/** A stop asked before the bot runs is a clean stop. */
let stopped = null;
const noteStop = (signal) => (stopped = signal);
for (const signal of signals) process.on(signal, noteStop);
function exitIfStopped() {
  if (!stopped) return;
  console.error(`npm start: ${stopped} before the bot started: stopped.`);
  process.exit(0);
}

if (existsSync('.env') && typeof process.loadEnvFile === 'function') process.loadEnvFile('.env');
const gen = await run(['scripts/prisma-generate.mjs', '--if-missing']);
exitIfStopped();
if (gen !== 0) process.exit(gen);
const built = await run(['scripts/build.mjs']);
exitIfStopped();
for (const signal of signals) process.off(signal, noteStop);
if (built === 0) {
  // The bot runs in this process and handles SIGINT and SIGTERM itself (src/main.ts).
  await import(pathToFileURL('dist/main.js').href);
} else {
  console.error('npm start: the build failed; running the TypeScript sources with tsx instead.');
  process.exit(await run([...process.execArgv, '--import', 'tsx', 'src/main.ts', ...process.argv.slice(2)]));
}
