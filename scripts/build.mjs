#!/usr/bin/env node
// Builds what `npm start` runs: src/main.ts and everything it imports, bundled by esbuild into
// plain JavaScript under dist/ (packages stay in node_modules). Running built JavaScript saves the
// tsx loader's memory and start-up time; tsx stays for development, tests, scripts and the bench.
// esbuild comes with tsx (a dependency), so `npm install` on a fresh clone brings it.
//
// Modules that find files next to themselves (the migrations, the emulator's page, the generated
// Prisma client) keep doing so: each module's `import.meta.url` is its source file's address
// (one output file, dist/main.js, so the addresses are relative to it).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');

/** Rewrites `import.meta.url` in a bundled module to the address of its source file. */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      let contents = await readFile(args.path, 'utf8');
      if (contents.includes('import.meta.url')) {
        const rel = path.relative(outdir, args.path).split(path.sep).join('/');
        contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`);
      }
      return { contents, loader: 'ts' };
    });
  },
};

const started = Date.now();
await build({
  entryPoints: { main: path.join(root, 'src/main.ts') },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [sourceUrls],
});
if (process.argv.includes('--verbose')) console.log(`built dist/main.js in ${Date.now() - started} ms`);
