#!/usr/bin/env node
// npm start: makes sure the Prisma client is generated (first run on a fresh machine), then runs
// src/main.ts with tsx. Loads .env if present (Node 20.12+ has process.loadEnvFile).
// SIGTERM and SIGINT (systemd, Docker, pm2, Ctrl-C) are passed on to the bot, which shuts down
// cleanly; this process exits with the bot's exit code.
import { existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';

if (existsSync('.env') && typeof process.loadEnvFile === 'function') process.loadEnvFile('.env');
const gen = spawnSync(process.execPath, ['scripts/prisma-generate.mjs', '--if-missing'], { stdio: 'inherit' });
if (gen.status !== 0) process.exit(gen.status ?? 1);
const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1)));
