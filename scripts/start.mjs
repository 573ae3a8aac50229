#!/usr/bin/env node
// npm start: makes sure the Prisma client is generated (first run on a fresh machine), then runs
// src/main.ts with tsx. Loads .env if present (Node 20.12+ has process.loadEnvFile).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (existsSync('.env') && typeof process.loadEnvFile === 'function') process.loadEnvFile('.env');
const gen = spawnSync(process.execPath, ['scripts/prisma-generate.mjs', '--if-missing'], { stdio: 'inherit' });
if (gen.status !== 0) process.exit(gen.status ?? 1);
const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
process.exit(r.status ?? 1);
