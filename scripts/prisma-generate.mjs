#!/usr/bin/env node
// Runs `prisma generate` offline. The Prisma 7 CLI tries to download its native schema engine before
// any command; generate never runs it, so pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file
// (this script) skips the download. On a connected machine this is the same as `npx prisma generate`.
// With --if-missing it does nothing when the client was generated from the current schema.prisma.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const stamp = 'src/generated/prisma/.schema-sha256';
const schemaHash = createHash('sha256').update(readFileSync('prisma/schema.prisma')).digest('hex');
if (process.argv.includes('--if-missing') && existsSync(stamp) && readFileSync(stamp, 'utf8') === schemaHash) process.exit(0);

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
env.CHECKPOINT_DISABLE = '1';
const r = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { stdio: 'inherit', env });
if (r.status === 0) writeFileSync(stamp, schemaHash);
process.exit(r.status ?? 1);
