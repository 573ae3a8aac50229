import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const INCLUDE = ['tests/**/*.test.ts', 'packages/*/tests/**/*.test.ts'];

/**
 * What makes a test file more than a unit test: Postgres (a test database, the harness, a bot
 * process, PGlite), a server or another process (the emulator, Chromium). Looked for in the file
 * and in the test helpers it imports (relative imports under a tests folder, followed), so a new
 * file lands in the right project by what it uses, with no list to keep.
 */
const NEEDS_IO =
  /from ['"](pg|playwright-core|node:child_process|@electric-sql\/pglite)['"]|helpers\/(db|pg|harness|bot-process)\.ts['"]|\b(startEmulator|startDemoEmulator|openEmbedded)\b/;
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * Whether `pattern` is found in `file` or in a test helper it imports (relative imports under a
 * tests folder, followed), remembered per file.
 */
function foundWithHelpers(pattern: RegExp): (file: string) => boolean {
  const known = new Map<string, boolean>();
  const search = (file: string, visiting: Set<string>): boolean => {
    const seen = known.get(file);
    if (seen !== undefined) return seen;
    if (visiting.has(file)) return false;
    visiting.add(file);
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return false;
    }
    let found = pattern.test(text);
    for (const m of found ? [] : text.matchAll(IMPORT)) {
      const dep = path.resolve(path.dirname(file), m[1]!);
      if (dep.split(path.sep).includes('tests') && search(dep, visiting)) {
        found = true;
        break;
      }
    }
    known.set(file, found);
    return found;
  };
  return (file) => search(file, new Set());
}
const needsIo = foundWithHelpers(NEEDS_IO);

const root = path.dirname(fileURLToPath(import.meta.url));
/** Every file INCLUDE names, relative to the root. */
function testFiles(): string[] {
  const dirs = ['tests', ...readdirSync(path.join(root, 'packages')).map((p) => `packages/${p}/tests`)];
  return dirs.flatMap((d) => {
    try {
      return (readdirSync(path.join(root, d), { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts') && !f.split(path.sep).includes('node_modules')).map((f) => `${d}/${f.split(path.sep).join('/')}`);
    } catch {
      return [];
    }
  });
}
const allTestFiles = testFiles();
const unitFiles = allTestFiles.filter((f) => !needsIo(path.join(root, f)));

/**
 * What makes an io file unsafe to share its process with the files before and after it: module
 * mocks, fake timers or stubbed globals (they outlive the file in a shared process), changes to
 * process.env or process listeners, and child processes (a bot or emulator process, a script run:
 * a file that fails midway may leave one running into the next file). Chromium is not one of them:
 * browser files take the worker's one Chromium (sharedBrowser() in the emulator's playwright
 * helpers, launched once per process) and close only their own pages, so a file that imports
 * playwright-core for its types stays in `io`; one that imports its values (launches a browser of
 * its own) gets a process of its own. Looked for in the
 * file and in the test helpers it imports, as NEEDS_IO is; a file can also ask for a process of its
 * own with a comment line `// vitest: isolate`.
 */
const NEEDS_OWN_PROCESS =
  /\bvi\.(mock|doMock|useFakeTimers|stubEnv|stubGlobal)\b|process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)|delete process\.env|\bprocess\.(on|once|chdir|exit)\(|from ['"]node:child_process['"]|^import (?!type\b)[^;]*?from ['"]playwright-core['"]|helpers\/bot-process\.ts['"]|^\/\/ vitest: isolate$/m;
const needsOwnProcess = foundWithHelpers(NEEDS_OWN_PROCESS);
const isolatedFiles = allTestFiles.filter((f) => !unitFiles.includes(f) && needsOwnProcess(path.join(root, f)));

/**
 * Vitest starts the files it has timed before longest first; files it has never timed (a clean
 * clone: CI) it starts largest first, which would leave a two-minute browser match to start near
 * the end and run alone. Until a run has been timed, the kinds that take longest start first:
 * browser, then reliability, then end-to-end files (vitest's order within each).
 */
class SlowKindsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = sorted.some((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path.relative(this.ctx.config.root, f.moduleId)}`));
    if (timed) return sorted;
    const weight = (f: TestSpecification) => {
      const file = f.moduleId.split(path.sep).join('/');
      return file.includes('/tests/browser/') ? 3 : file.includes('/tests/reliability/') ? 2 : file.endsWith('.e2e.test.ts') ? 1 : 0;
    };
    return sorted.sort((a, b) => weight(b) - weight(a));
  }
}

// Two cores, three workers: most io files wait (on the emulator, timers, Postgres, Chromium) more
// than they compute, and a third file in flight keeps the cores busy. On a quiet machine, a run of
// the whole suite with no timings cached (as CI runs it) took 241 s with three workers against
// 289 s with two (2026-11-27). Three projects:
// - unit: pure tests (engines, renders, texts). No database, no global setup, and no process per
//   file (isolate: false): a worker loads the modules once and runs file after file.
// - io: files that touch Postgres, the emulator or the bot in-process. The global setup builds the
//   template database once; every file gets its own database (tests/helpers/db.ts), its own
//   emulator and its own bot, so files run in parallel safely. They share their worker's process
//   (isolate: false): the games, Prisma and discord.js are imported once per worker, not once per
//   file. The bot's module-level caches are kept per database client for this (board names and
//   tables, replayed states).
// - io-isolated: io files that need a process of their own (NEEDS_OWN_PROCESS): one per file.
// `npm test` runs all three; `npm run test:unit` only the first.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: SlowKindsFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: unitFiles, isolate: false },
      },
      {
        extends: true,
        test: { name: 'io', include: INCLUDE, exclude: [...unitFiles, ...isolatedFiles, '**/node_modules/**'], globalSetup: ['tests/helpers/global-setup.ts'], isolate: false },
      },
      {
        extends: true,
        test: { name: 'io-isolated', include: isolatedFiles, globalSetup: ['tests/helpers/global-setup.ts'] },
      },
    ],
  },
});
