#!/usr/bin/env node
// Builds what `npm start` runs: src/main.ts and everything it imports, bundled by esbuild into
// plain JavaScript under dist/ (packages stay in node_modules, but for the workspace's own). Running built JavaScript saves the
// tsx loader's memory and start-up time; tsx stays for development, tests, scripts and the bench.
// esbuild is a dependency of its own (pinned to the version tsx uses, so there is one copy).
//
// Modules that find files next to themselves (the migrations, the emulator's page, the generated
// Prisma client) keep doing so: each module's `import.meta.url` is its source file's address
// (one output file, dist/main.js, so the addresses are relative to it).
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// --outdir=<folder under the checkout> builds elsewhere than dist/ (tests/helpers/bot-process.ts builds a copy of its
// own, so that parallel test files never run a bundle another one is writing). It must stay inside the checkout:
// the bundle imports its packages from node_modules, found by walking up from the bundle's folder.
const outArg = process.argv.find((a) => a.startsWith('--outdir='));
const outdir = outArg ? path.resolve(outArg.slice('--outdir='.length)) : path.join(root, 'dist');
const require = createRequire(import.meta.url);
// --entry=<file under the checkout> builds that file instead of src/main.ts, into <outdir>/<its name>.js
// (the bench's floor bot, bench/floor-bot-main.ts, built as the bot is).
const entryArg = process.argv.find((a) => a.startsWith('--entry='));
const entry = entryArg ? path.resolve(entryArg.slice('--entry='.length)) : path.join(root, 'src/main.ts');
const entryName = entryArg ? path.basename(entry).replace(/\.ts$/, '') : 'main';

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

/**
 * Native packages the bot may never use in a run (Crystallia's picture needs Skia, about 28 MiB
 * resident once loaded) are loaded at their first use instead of at start-up: the bundle imports a
 * stand-in whose every export (function, class or object, listed from the package now) loads the
 * package when first called, constructed or read.
 */
const LAZY = ['@napi-rs/canvas'];
const lazyNative = {
  name: 'lazy-native',
  setup(b) {
    const filter = new RegExp(`^(${LAZY.map((n) => n.replace(/[/.]/g, (c) => `\\${c}`)).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-native' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-native' }, (args) => {
      const names = Object.keys(require(args.path)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
      const lines = [
        `import { createRequire } from 'node:module';`,
        `let mod;`,
        `const load = () => (mod ??= createRequire(import.meta.url)(${JSON.stringify(args.path)}));`,
        `const lazy = (name) => new Proxy(function () {}, {`,
        `  apply: (_t, self, a) => Reflect.apply(load()[name], self, a),`,
        `  construct: (_t, a, nt) => Reflect.construct(load()[name], a),`,
        `  get: (_t, k) => { const o = load()[name]; const v = Reflect.get(o, k); return typeof v === 'function' && typeof o === 'object' ? v.bind(o) : v; },`,
        `  set: (_t, k, v) => Reflect.set(load()[name], k, v),`,
        `  has: (_t, k) => k in load()[name],`,
        `});`,
        ...names.map((n) => `export const ${n} = lazy(${JSON.stringify(n)});`),
      ];
      return { contents: lines.join('\n'), loader: 'js', resolveDir: root };
    });
  },
};

/**
 * The workspace's own packages (packages/*, e.g. @stonehall/discord-emulator) ship TypeScript
 * sources, which plain Node cannot run: they are bundled like the app's own code, resolved
 * through their package.json `exports`, instead of staying external as other packages do.
 */
const workspacePackages = {
  name: 'workspace-packages',
  setup(b) {
    b.onResolve({ filter: /^@stonehall\// }, async (args) => {
      const [scope, name, ...rest] = args.path.split('/');
      const dir = path.join(root, 'node_modules', scope, name);
      const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
      const sub = rest.length ? `./${rest.join('/')}` : '.';
      const target = typeof pkg.exports === 'string' && sub === '.' ? pkg.exports : pkg.exports?.[sub];
      if (typeof target !== 'string') return { errors: [{ text: `${args.path}: no such export in ${name}'s package.json` }] };
      return { path: await realpath(path.join(dir, target)) };
    });
  },
};

const started = Date.now();
await build({
  entryPoints: { [entryName]: entry },
  outdir,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [workspacePackages, sourceUrls, lazyNative],
});
if (process.argv.includes('--verbose')) console.log(`built ${path.relative(root, path.join(outdir, `${entryName}.js`))} in ${Date.now() - started} ms`);
