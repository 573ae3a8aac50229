#!/usr/bin/env node
// npm start: makes sure the Prisma client is generated (first run on a fresh machine), builds
// src/main.ts into plain JavaScript (scripts/build.mjs, esbuild: under a second), then runs the
// bot in this very process: no tsx loader and no second Node process, which keeps memory and
// start-up low. Loads .env if present (Node 20.12+ has process.loadEnvFile).
// SIGTERM and SIGINT (systemd, Docker, pm2, Ctrl-C) reach the bot, which shuts down cleanly.
// If the build cannot run, the bot runs from its TypeScript sources with tsx, as in development.
// package.json starts Node with --max-semi-space-size=2: V8's young generation capped at 2 MiB per
// semi-space instead of 16 takes about 20-25 MiB off an idle bot's RSS (docs/performance.md, goal 5);
// a bot allocates little per event, so the extra scavenges cost nothing measurable.
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

if (existsSync('.env') && typeof process.loadEnvFile === 'function') process.loadEnvFile('.env');
const gen = spawnSync(process.execPath, ['scripts/prisma-generate.mjs', '--if-missing'], { stdio: 'inherit' });
if (gen.status !== 0) process.exit(gen.status ?? 1);
const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (built.status === 0) {
  await import(pathToFileURL('dist/main.js').href);
} else {
  console.error('npm start: the build failed; running the TypeScript sources with tsx instead.');
  const child = spawn(process.execPath, [...process.execArgv, '--import', 'tsx', 'src/main.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1)));
}
