import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_IDS, CARDS, KEYSTONE_BY_NUMBER, type CardId } from '../../../src/games/keystone/engine/data.ts';
import { canPlace, isLegalLine, lineDirection, lineKeystones, lineSummary, openNumbers, resolveLine } from '../../../src/games/keystone/engine/lines.ts';
import { c, line } from './cards.ts';

describe('Keystone card data', () => {
  it('has 53 cards: five colours 1-10 with the edition keystones, and 3 God cards', () => {
    expect(CARDS).toHaveLength(53);
    expect(new Set(CARDS.map((x) => x.id)).size).toBe(53);
    expect(CARDS.filter((x) => x.god)).toHaveLength(3);
    const expected = { 1: 1, 2: 0, 3: 2, 4: -2, 5: 0, 6: 3, 7: 0, 8: 1, 9: 0, 10: 6 };
    expect(KEYSTONE_BY_NUMBER).toEqual(expected);
    for (const colour of ['red', 'blue', 'green', 'yellow', 'purple']) {
      const ofColour = CARDS.filter((x) => x.colour === colour);
      expect(ofColour.map((x) => x.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(ofColour.map((x) => x.keystone)).toEqual(Object.values(expected));
    }
  });
});

describe('what cards in a line count as', () => {
  // [line, numbers counted, keystones counted]
  const rows: Array<[string, number[], number[]]> = [
    ['= = 6', [6, 6, 6], [3, 3, 3]],
    ['3 = =', [3, 3, 3], [2, 2, 2]],
    ['= 10', [10, 10], [6, 6]],
    ['= 4', [4, 4], [-2, -2]],
    ['=', [0], [0]],
    ['= = =', [0, 0, 0], [0, 0, 0]],
    ['8 4 =', [8, 4, 4], [1, -2, -2]],
    ['2 = 1', [2, 2, 1], [0, 0, 1]],
    ['= 7 3', [7, 7, 3], [0, 0, 2]],
    ['5 = 7', [5, 5, 7], [0, 0, 0]],
    ['= 6 = 10 =', [6, 6, 6, 10, 10], [3, 3, 3, 6, 6]],
    ['1 3 6 10', [1, 3, 6, 10], [1, 2, 3, 6]],
  ];
  it.each(rows)('%s counts as %j', (spec, numbers, keystones) => {
    const counted = resolveLine(line(spec));
    expect(counted.map((x) => x.number)).toEqual(numbers);
    expect(counted.map((x) => x.keystone)).toEqual(keystones);
    expect(lineKeystones(line(spec))).toBe(keystones.reduce((a, b) => a + b, 0));
  });

  it('the RULINGS totals: `= 10` scores 6 + 6, `= 4` scores -2 + -2, a lone God card 0', () => {
    expect(lineKeystones(line('= 10'))).toBe(12);
    expect(lineKeystones(line('= 4'))).toBe(-4);
    expect(lineKeystones(line('='))).toBe(0);
  });

  it('a lone God card shows 0 until a numbered card lands on it', () => {
    expect(resolveLine(line('='))[0]).toEqual({ number: 0, keystone: 0 });
    expect(resolveLine(line('= 6'))[0]).toEqual({ number: 6, keystone: 3 });
  });
});

describe('line direction', () => {
  const rows: Array<[string, 'up' | 'down' | null]> = [
    ['7', null],
    ['1 2', 'up'],
    ['2 1', 'down'],
    ['5 5', null],
    ['5 5 7', 'up'],
    ['5 5 3', 'down'],
    ['=', null],
    ['= = 6', null],
    ['= 7 3', 'down'],
    ['2 = 1', 'down'],
    ['3 = = 8', 'up'],
    ['8 4 =', 'down'],
  ];
  it.each(rows)('%s runs %s', (spec, dir) => expect(lineDirection(line(spec))).toBe(dir));
});

describe('what may go on top of a line', () => {
  // [line, card on top (number or =), legal]
  const rows: Array<[string, string, boolean]> = [
    // RULINGS: `8 4 =` takes 4 or lower.
    ['8 4 =', '4', true],
    ['8 4 =', '3', true],
    ['8 4 =', '1', true],
    ['8 4 =', '5', false],
    ['8 4 =', '8', false],
    ['8 4 =', '=', true],
    // Equal numbers stack; a direction is fixed by the first two differing numbers.
    ['5', '5', true],
    ['5', '1', true],
    ['5', '10', true],
    ['5 5', '1', true],
    ['5 5', '10', true],
    ['1 5', '5', true],
    ['1 5', '4', false],
    ['1 5', '10', true],
    ['9 3', '3', true],
    ['9 3', '4', false],
    ['9 3', '1', true],
    ['9 3 3', '2', true],
    ['9 3 3', '9', false],
    // A God card at the bottom: the next card may be anything; it then counts as that card.
    ['=', '10', true],
    ['=', '4', true],
    ['=', '=', true],
    ['= =', '1', true],
    ['= 7', '3', true],
    ['= 7', '9', true],
    ['= 7 3', '7', false],
    ['= 7 3', '2', true],
    // A God card in the middle never fixes or changes a direction.
    ['2 =', '1', true],
    ['2 =', '3', true],
    ['3 = 7', '6', false],
    ['3 = 7', '7', true],
    ['10 = 6 =', '7', false],
    ['10 = 6 =', '6', true],
    // A God card on top: the next card is compared with the number it copies.
    ['3 5 =', '4', false],
    ['3 5 =', '5', true],
    ['3 5 = =', '9', true],
    ['10 1 =', '1', true],
    ['10 1 =', '2', false],
  ];
  it.each(rows)('on %s, a %s: %s', (spec, top, legal) => {
    // The card on top must not be one already in the line: pick a colour the line helper did not use (purple).
    const id = top === '=' ? c('=3') : c(`p${top}`);
    expect(canPlace(line(spec), id)).toBe(legal);
    expect(isLegalLine([...line(spec), id])).toBe(legal);
  });

  it('a card can only ever go on top: a line built in another order is not a line', () => {
    expect(isLegalLine(line('1 5 3'))).toBe(false);
    expect(isLegalLine(line('3 = 8 2'))).toBe(false);
    expect(isLegalLine(line('2 = 1'))).toBe(true);
    expect(isLegalLine(line('= 7 3'))).toBe(true);
    expect(isLegalLine(line('5 5 5 5'))).toBe(true);
  });

  it('measures how open a line is', () => {
    expect(openNumbers(line('='))).toBe(10);
    expect(openNumbers(line('5 7'))).toBe(4);
    expect(openNumbers(line('8 4 ='))).toBe(4);
    expect(openNumbers(line('6 6'))).toBe(10);
  });
});

describe('the one-pass line summary Auto-place uses', () => {
  it('agrees with the rules above on random legal lines', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 52 }), { maxLength: 16 }), (picks) => {
        // Build a legal line from the picks: each picked card goes on top if it fits and is unused.
        const built: CardId[] = [];
        for (const i of picks) {
          const id = CARD_IDS[i]!;
          if (!built.includes(id) && canPlace(built, id)) built.push(id);
        }
        expect(isLegalLine(built)).toBe(true);
        const s = lineSummary(built);
        expect(s).toMatchObject({ length: built.length, keystones: lineKeystones(built), open: openNumbers(built), direction: lineDirection(built) });
      }),
      { numRuns: 300 },
    );
  });
});
