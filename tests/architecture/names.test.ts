import { describe, expect, it } from 'vitest';
import { sourceFiles } from './imports.ts';
import { CORE, coreOffenders, namesIn, wordsOf } from './names.ts';

describe('finding a game named in code', () => {
  it.each([
    // [code, names, named]
    ['const n = issue.minimum;', ['nim'], []],
    ['if (i.origin === "string") return Number(i.minimum) <= 1', ['nim'], []],
    ['const nim = games.get("nim");', ['nim'], ['nim']],
    ['if (kind === "keystone") return 4;', ['keystone'], ['keystone']],
    ['const isKeystone = true;', ['keystone'], ['keystone']],
    ['const KEYSTONE_SEATS = 4;', ['keystone'], ['keystone']],
    ['import x from "./keystone-view.ts";', ['keystone'], ['keystone']],
    ['const keystones = [];', ['keystone'], []],
    ['const tellstonesBoard = 1;', ['tellstones', 'stones'], ['tellstones']],
    ["title: 'King's Circle'", ["King's Circle", 'circle'], ["King's Circle", 'circle']],
    ['const kingCircle = 1;', ["King's Circle"], []],
  ] as const)('%s, looking for %j: %j', (code, names, named) => {
    expect(namesIn(code, names)).toEqual(named);
  });

  it('splits identifiers into their words', () => {
    expect(wordsOf('parseHTTPResponse2xx_fast')).toEqual(['parse', 'http', 'response', 'xx', 'fast']);
  });

  it('lets a sixth game be called nim: the core names no such game (it reads zod\'s `minimum`)', () => {
    const files = sourceFiles([...CORE]);
    expect(files).toContain('src/bot/input-errors.ts');
    expect(coreOffenders(files, ['nim', 'Nim'])).toEqual([]);
    // The check still finds a game that is named.
    expect(coreOffenders(['src/bot/input-errors.ts'], ['origin'])).toEqual(['src/bot/input-errors.ts names origin']);
  });
});
