import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importsOf, ROOT } from './imports.ts';

/**
 * How the architecture check finds a game named in code: as whole words, never as a substring
 * (a game called `nim` is not named by zod's `minimum`). Identifiers count as the words they are
 * made of: `isKeystone`, `KEYSTONE_SEATS` and `keystone-view` all name Keystone.
 */

/** The words of a text, lower case: split at camelCase humps, underscores, digits and anything not a letter. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
}

/** The names (a game's kind or title, one word or several) that `text` names as whole words. */
export function namesIn(text: string, names: readonly string[]): string[] {
  const haystack = ` ${wordsOf(text).join(' ')} `;
  return names.filter((name) => {
    const words = wordsOf(name);
    return words.length > 0 && haystack.includes(` ${words.join(' ')} `);
  });
}

/** The core: everything that must work for any game without knowing which. */
export const CORE = ['src/services', 'src/scheduler', 'src/outbox', 'src/bot', 'src/kernel', 'src/db'] as const;

/** Code without comments (doc comments may give a game as an example; code may not). */
export const code = (file: string) =>
  readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** What keeps `files` from being core: an import of a game or a command module, or a game named in code. */
export function coreOffenders(files: readonly string[], gameNames: readonly string[]): string[] {
  const offenders: string[] = [];
  for (const f of files) {
    for (const target of importsOf(f)) if (target.startsWith('src/games/') || target.startsWith('commands/')) offenders.push(`${f} imports ${target}`);
    for (const name of namesIn(code(f), gameNames)) offenders.push(`${f} names ${name}`);
  }
  return offenders;
}
