import { describe, expect, it } from 'vitest';
import { parseCommandLine, withArticle } from '../src/page/command-line.js';

/**
 * The playground reads a slash command typed as one line as Discord's client does: the command,
 * then each option from its `name:` to the next option's `name:`, so values may hold spaces.
 */
const entries = [
  {
    path: 'krellstone alias set',
    options: [
      { name: 'stone', required: true },
      { name: 'alias', required: true },
    ],
  },
  { path: 'krellstone alias remove', options: [{ name: 'stone', required: true }] },
  { path: 'krellstone list', options: [{ name: 'type' }, { name: 'has-alias' }] },
  { path: 'knucklebones place', options: [{ name: 'column', required: true }, { name: 'game' }] },
  { path: 'note', options: [{ name: 'text', required: true }, { name: 'at' }] },
  { path: 'ping', options: [] },
];
const parse = (line: string) => {
  const r = parseCommandLine(line, entries);
  return { path: r.entry?.path ?? `unknown: ${r.path}`, values: r.values, stray: r.stray };
};

describe('a slash command typed as one line', () => {
  it.each([
    // [typed, command, values, stray]
    ['/knucklebones place column:2', 'knucklebones place', { column: '2' }, ''],
    ['/knucklebones place column:2 game:"3"', 'knucklebones place', { column: '2', game: '3' }, ''],
    ['/krellstone alias set stone:3 alias:Big Red', 'krellstone alias set', { stone: '3', alias: 'Big Red' }, ''],
    ['/krellstone alias set alias:a <b>x</b> stone:7', 'krellstone alias set', { alias: 'a <b>x</b>', stone: '7' }, ''],
    ['/krellstone alias set stone:3   alias:  The   Old One  ', 'krellstone alias set', { stone: '3', alias: 'The   Old One' }, ''],
    ['/krellstone alias set stone:3 alias:"stone:4 is mine"', 'krellstone alias set', { stone: '3', alias: 'stone:4 is mine' }, ''],
    ['/Krellstone Alias Set Stone:3 ALIAS:Red', 'krellstone alias set', { stone: '3', alias: 'Red' }, ''],
    ['/krellstone alias remove stone:Big Red', 'krellstone alias remove', { stone: 'Big Red' }, ''],
    ['/krellstone list has-alias:true type:pawn', 'krellstone list', { 'has-alias': 'true', type: 'pawn' }, ''],
    // A colon that is not an option's `name:` stays in the value.
    ['/note text:see https://example.com at 12:30 at:tomorrow', 'note', { text: 'see https://example.com at 12:30', at: 'tomorrow' }, ''],
    ['/note text:ratio 2:1', 'note', { text: 'ratio 2:1' }, ''],
    // Text before any `name:` fills the first required option not named, as Discord's cursor does.
    ['/krellstone alias set Big Red stone:3', 'krellstone alias set', { stone: '3', alias: 'Big Red' }, ''],
    ['/krellstone alias remove 3', 'krellstone alias remove', { stone: '3' }, ''],
    ['/krellstone list pawn', 'krellstone list', {}, 'pawn'],
    ['/ping', 'ping', {}, ''],
    ['/ping now', 'ping', {}, 'now'],
    // Not a command.
    ['/krellstone alias sett stone:3 alias:x', 'unknown: krellstone alias sett', {}, ''],
    ['/krellstonealias set', 'unknown: krellstonealias set', {}, ''],
  ] as const)('%s', (line, path, values, stray) => {
    expect(parse(line)).toEqual({ path, values, stray });
  });
});

describe('the form\'s hints', () => {
  it.each([
    ['integer', 'an integer'],
    ['number', 'a number'],
    ['text', 'a text'],
    ['user', 'a user'],
    ['user or role', 'a user or role'],
    ['value', 'a value'],
    ['option', 'an option'],
    ['umbrella', 'an umbrella'],
    ['unit', 'a unit'],
  ])('%s: %s', (word, phrase) => {
    expect(withArticle(word)).toBe(phrase);
  });
});
