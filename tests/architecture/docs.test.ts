import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpMessage, rulesPage } from '../../src/bot/game-commands.ts';
import type { GameModule } from '../../src/bot/game-module.ts';
import { games } from '../../src/games/index.ts';
import { ROOT } from './imports.ts';

/**
 * The project stands on its own (issue 23, point 16): every game has its rules page in
 * docs/rules/, `/<game> help` points to it, and no link in README.md or docs/ leads to a file a
 * fresh clone does not have (the rulebooks in ../shared are not part of it).
 */

/** README.md and every Markdown file under docs/, relative to the repository. */
function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      const rel = path.join(dir, name);
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(file: string): Set<string> {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => slug(m[1]!)));
}

/**
 * Every reference to a file in a Markdown file: its links (`[text](target)`, images too) and the
 * paths it quotes in code spans that name a document (`docs/x.md`, `../shared/rules/`), each with
 * the file it was found in. Web links and generated paths (dist/, .data/) are not references.
 */
function references(file: string): Array<{ target: string; kind: 'link' | 'code' }> {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const out: Array<{ target: string; kind: 'link' | 'code' }> = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) if (!/^[a-z]+:/i.test(m[1]!)) out.push({ target: m[1]!, kind: 'link' });
  for (const m of text.matchAll(/`([^`\s<>*]+)`/g)) {
    const t = m[1]!;
    if (/^[a-z]+:/i.test(t)) continue;
    if (t.startsWith('../') || /\.(md|txt)$/.test(t)) out.push({ target: t, kind: 'code' });
  }
  return out;
}

/** Where a reference points: links are relative to their file; quoted paths to the repository (or to the file). */
function resolve(file: string, ref: { target: string; kind: 'link' | 'code' }): string {
  const [p] = ref.target.split('#') as [string];
  if (p === '') return path.join(ROOT, file);
  const fromFile = path.resolve(ROOT, path.dirname(file), p);
  if (ref.kind === 'link') return fromFile;
  const fromRoot = path.resolve(ROOT, p);
  return existsSync(fromRoot) || !existsSync(fromFile) ? fromRoot : fromFile;
}

describe('the documentation', () => {
  it('has a rules page for every game in src/games/index.ts, and an index that links each', () => {
    expect(games.all.length).toBeGreaterThanOrEqual(5);
    const index = readFileSync(path.join(ROOT, 'docs/rules/README.md'), 'utf8');
    const missing: string[] = [];
    for (const g of games.all) {
      const page = rulesPage(g);
      expect(page).toBe(`docs/rules/${g.kind}.md`);
      if (!existsSync(path.join(ROOT, page))) missing.push(page);
      else expect(readFileSync(path.join(ROOT, page), 'utf8')).toMatch(new RegExp(`^# ${g.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      if (!index.includes(`](${g.kind}.md)`)) missing.push(`docs/rules/README.md's link to ${g.kind}.md`);
    }
    expect(missing).toEqual([]);
  });

  it('has no link or quoted path in README.md or docs/ that leaves the repository or leads nowhere', () => {
    const files = markdownFiles();
    expect(files).toContain('docs/rules/knucklebones.md');
    const broken: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const ref of references(file)) {
        count++;
        const target = resolve(file, ref);
        const where = `${file}: ${ref.target}`;
        if (path.relative(ROOT, target).startsWith('..')) broken.push(`${where} (outside the repository: a fresh clone does not have it)`);
        else if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (ref.target.includes('#') && target.endsWith('.md')) {
          const anchor = ref.target.split('#')[1]!;
          if (!anchors(path.relative(ROOT, target)).has(anchor)) broken.push(`${where} (no heading #${anchor})`);
        }
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('ends every game’s /help with a pointer to its rules page, whole, within a message’s 2,000 characters', () => {
    for (const g of games.all as GameModule[]) {
      const text = helpMessage(g);
      expect(text.length, g.kind).toBeLessThanOrEqual(2000);
      expect(text, g.kind).toContain(g.howToPlay);
      const pointer = text.split('\n').at(-1)!;
      expect(pointer, g.kind).toContain(`\`docs/rules/${g.kind}.md\``);
      expect(existsSync(path.join(ROOT, `docs/rules/${g.kind}.md`)), g.kind).toBe(true);
    }
  });

  it('keeps the pointer when a How to play is too long for one message', () => {
    const long = { kind: 'knucklebones', title: 'Knucklebones', howToPlay: 'x'.repeat(3000) };
    const text = helpMessage(long);
    expect(text.length).toBe(2000);
    expect(text.endsWith('`docs/rules/knucklebones.md` in Stonehall\'s repository.')).toBe(true);
  });
});
