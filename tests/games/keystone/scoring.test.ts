import { describe, expect, it } from 'vitest';
import { scoreLines, scoreLinesDetailed } from '../../../src/games/keystone/engine/scoring.ts';
import { line } from './cards.ts';

describe('Keystone scoring of one game', () => {
  // [lines, total, Sun flags]
  const rows: Array<[string, string[], number, boolean[]]> = [
    ['no lines score 0', [], 0, []],
    ['one line is the Sun: -3', ['10 10 ='], -3, [true]],
    ['a lone God card line is the Sun', ['='], -3, [true]],
    ['the longest line is the Sun, the other scores its keystones', ['4 4 4', '10'], -3 + (6 - 3), [true, false]],
    ['tied longest lines are both Suns', ['10 6', '3 1'], -6, [true, true]],
    ['tied Suns and a shorter line', ['10 6', '3 1', '10'], -6 + 3, [true, true, false]],
    ['the -2 card makes a line negative', ['1 2 3', '4'], -3 + (-2 - 3), [true, false]],
    ['negative totals stand (no floor)', ['1 2 3 5', '4 4', '9'], -3 + (-4 - 3) + (0 - 3), [true, false, false]],
    ['God cards count as the card they copy: `= 10` scores 12', ['1 2 3 5', '= 10'], -3 + (12 - 3), [true, false]],
    ['`= 4` scores -4', ['1 2 3 5', '= 4'], -3 + (-4 - 3), [true, false]],
    ['a lone God card outside the Sun scores 0', ['1 2', '='], -3 + (0 - 3), [true, false]],
    ['the Sun counts God cards in its length', ['= = 4', '10 6'], -3 + (9 - 3), [true, false]],
    ['keystones of the Sun never count, however high', ['10 10 10 10', '4'], -3 + (-2 - 3), [true, false]],
  ];
  it.each(rows)('%s', (_name, specs, total, suns) => {
    const lines = specs.map(line);
    expect(scoreLines(lines)).toBe(total);
    expect(scoreLinesDetailed(lines).lines.map((l) => l.sun)).toEqual(suns);
  });

  it('each line reports its keystones, Sun or not, and what it adds', () => {
    const d = scoreLinesDetailed(['4 4 4', '10 6'].map(line));
    expect(d.lines).toEqual([
      { length: 3, keystones: -6, sun: true, score: -3 },
      { length: 2, keystones: 9, sun: false, score: 6 },
    ]);
    expect(d.total).toBe(3);
  });
});
