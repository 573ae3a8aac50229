import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The project's import graph, read from the sources (every `import … from`, `export … from` and
 * `import('…')` of a relative path): what the architecture tests check for cycles and for arrows
 * that must not exist. `typesToo: false` leaves out `import type` / `export type` statements,
 * which load nothing at run time (a cycle through types only is not a cycle of modules).
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');

export function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (name === 'node_modules' || name === 'generated' || name.startsWith('.')) continue;
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path.relative(ROOT, p));
    }
  };
  for (const d of dirs) walk(path.join(ROOT, d));
  return out.sort();
}

const SPEC = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Relative imports of a file, resolved to repository paths. */
export function importsOf(file: string, typesToo = true): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of text.matchAll(SPEC)) {
    if (!typesToo && /^\s*(import|export)\s+type\s/.test(m[0])) continue;
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith('.')) continue;
    out.push(path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec)));
  }
  return out;
}

export function graph(files: string[], typesToo = true): Map<string, string[]> {
  const set = new Set(files);
  return new Map(files.map((f) => [f, importsOf(f, typesToo).filter((t) => set.has(t))]));
}

/** Strongly connected components of more than one file (or a file importing itself): import cycles. */
export function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (g.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}
