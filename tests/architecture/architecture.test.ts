import { describe, expect, it } from 'vitest';
import { games } from '../../src/games/index.ts';
import { cycles, graph, importsOf, sourceFiles } from './imports.ts';
import { code, CORE, coreOffenders } from './names.ts';

/**
 * The shape of the code (docs/architecture.md): one folder per game, a core that receives the
 * games and never names one, pure engines, and no import cycles.
 */

const GAME_NAMES = [...new Set([...games.all.flatMap((g) => [g.kind, g.title]), 'keystone', 'crystallia', 'krellstones'])];

describe('the architecture', () => {
  it('has no import cycle (of modules: type-only imports load nothing)', () => {
    const g = graph(sourceFiles(['src', 'commands', 'scripts', 'bench', 'packages']), false);
    expect(g.size).toBeGreaterThan(50);
    expect(cycles(g)).toEqual([]);
  });

  it('keeps the Discord emulator a package of its own: it reaches nothing outside its folder, and the app reaches it by name', () => {
    const offenders: string[] = [];
    const pkg = sourceFiles(['packages/discord-emulator']);
    expect(pkg.length).toBeGreaterThan(20);
    for (const f of pkg) for (const t of importsOf(f)) if (!t.startsWith('packages/discord-emulator/')) offenders.push(`${f} imports ${t}`);
    for (const f of sourceFiles(['src', 'commands', 'scripts', 'bench', 'tests'])) {
      for (const t of importsOf(f)) if (t.startsWith('packages/')) offenders.push(`${f} imports ${t} by path (use the package name)`);
    }
    expect(offenders).toEqual([]);
  });

  it('keeps the core free of any particular game: no import of src/games, no game named in code', () => {
    const files = sourceFiles([...CORE]);
    expect(files.length).toBeGreaterThan(30);
    // Names as words (tests/architecture/names.ts): a game called `nim` is not named by `minimum`.
    expect(coreOffenders(files, GAME_NAMES)).toEqual([]);
  });

  it('keeps every engine pure: all it reaches is the kernel and pure files of its own game, never the clock or Math.random', () => {
    const offenders: string[] = [];
    for (const f of sourceFiles(['src/games']).filter((x) => x.split('/')[3] === 'engine')) {
      const game = f.split('/').slice(0, 3).join('/');
      const seen = new Set<string>();
      const queue = [f];
      while (queue.length) {
        const file = queue.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        if (!file.startsWith('src/kernel/') && !file.startsWith(`${game}/`)) {
          offenders.push(`${f} reaches ${file}`);
          continue;
        }
        const text = code(file);
        if (/Math\.random|Date\.now|new Date\(/.test(text)) offenders.push(`${file} reads the clock or Math.random`);
        if (/from ['"](discord|@prisma|pg['"]|node:(?!crypto))/.test(text)) offenders.push(`${file} imports I/O`);
        queue.push(...importsOf(file));
      }
    }
    expect([...new Set(offenders)]).toEqual([]);
  });

  it('lists every game module (src/games/<game>/index.ts) in src/games/index.ts, with its command module', () => {
    const folders = sourceFiles(['src/games']).filter((f) => /^src\/games\/[^/]+\/index\.ts$/.test(f)).map((f) => f.split('/')[2]!);
    const kinds = games.kinds();
    expect([...new Set(folders)].sort()).toEqual([...kinds].sort());
    for (const kind of kinds) expect(sourceFiles(['commands']).includes(`commands/${kind}.ts`), `commands/${kind}.ts`).toBe(true);
  });
});
