import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkModule, defineCollectionRoutes, idArg, parseCollectionId, type GameModule } from '../../../src/bot/game-module.ts';
import { collectionRoutes } from '../../../src/games/krellstones/collection-routes.ts';
import { fitLines, parseFaceFilter, parseStoneFilter, stoneDetailText, stoneLine } from '../../../src/games/krellstones/collection-text.ts';
import { krellstones } from '../../../src/games/krellstones/index.ts';
import { checkAlias } from '../../../src/games/krellstones/inventory.ts';
import { UserError } from '../../../src/services/errors.ts';

/** The collection's typed filters (the help file's words), its texts, and its button ids. */
describe('typed filters', () => {
  it.each([
    ['', {}],
    ['DANCER', { type: 'dancer' }],
    ['dancer ingame hasalias', { type: 'dancer', inGame: true, hasAlias: true }],
    ['GAME ALIAS krells', { type: 'krell', inGame: true, hasAlias: true }],
  ])('stones: %j', (text, want) => {
    expect(parseStoneFilter(text)).toEqual(want);
  });

  it.each([
    ['MASTER UNSLOTTED PROMO >20 <40', { type: 'master', unslotted: true, promo: true, atLeast: 20, atMost: 40 }],
    ['>30', { atLeast: 30 }],
    ['<10 slotted', { atMost: 10, unslotted: false }],
    ['>=5', { atLeast: 5 }],
  ])('faces: %j', (text, want) => {
    expect(parseFaceFilter(text)).toEqual(want);
  });

  it('combines with the options, and refuses words it does not know or two types', () => {
    expect(parseStoneFilter('hasalias', { type: 'pawn', inGame: null })).toEqual({ type: 'pawn', inGame: null, hasAlias: true });
    expect(() => parseStoneFilter('PAWN', { type: 'master' })).toThrow(/one stone type; you gave Master and Pawn/);
    expect(() => parseStoneFilter('promo')).toThrow(/“promo” is not a stone filter/);
    expect(() => parseFaceFilter('INGAME')).toThrow(/“INGAME” is not a face filter/);
    expect(() => parseFaceFilter('>x')).toThrow(/is not a face filter/);
  });
});

describe('aliases', () => {
  it.each([
    ['  Big   Boss ', 'Big Boss'],
    ['Krell-7', 'Krell-7'],
  ])('%j is kept as %j', (raw, want) => expect(checkAlias(raw)).toBe(want));
  it.each([
    ['', 'krellstones/alias-empty'],
    ['12', 'krellstones/alias-number'],
    ['#12', 'krellstones/alias-number'],
    ['Remove', 'krellstones/alias-reserved'],
    ['all', 'krellstones/alias-reserved'],
    ['<@1>', 'krellstones/alias-chars'],
    ['x'.repeat(33), 'krellstones/alias-long'],
  ])('%j is refused (%s)', (raw, code) => {
    expect(() => checkAlias(raw)).toThrow(expect.objectContaining({ code }));
    expect(() => checkAlias(raw)).toThrow(UserError);
  });
});

describe('texts', () => {
  it('a stone line and a stone’s details', () => {
    expect(stoneLine({ id: 12, type: 'krell', alias: 'Lucky', values: [3, 5, 9, 12, 17, 20], slotted: 2, gameId: 4 })).toBe('**Krell #12 “Lucky”**: 3 5 9 12 17 20 · 2 faces · in game #4');
    const text = stoneDetailText({
      id: 3,
      type: 'pawn',
      alias: null,
      values: [9, 2, 3, 4],
      slotted: 1,
      gameId: null,
      sides: [
        { side: 1, printed: 1, value: 9, face: { type: 'pawn', value: 9, weight: 1, promo: true }, weight: 2, chance: 0.4 },
        { side: 2, printed: 2, value: 2, face: null, weight: 1, chance: 0.2 },
        { side: 3, printed: 3, value: 3, face: null, weight: 1, chance: 0.2 },
        { side: 4, printed: 4, value: 4, face: null, weight: 1, chance: 0.2 },
      ],
    });
    expect(text).toBe(
      [
        '🔎 **Pawn #3** (4 sides)',
        'Side 1: **9**: face 9 (weight +1, promo) over printed 1 · weight 2 · 40.0%',
        'Side 2: **2**: printed 2 · weight 1 · 20.0%',
        'Side 3: **3**: printed 3 · weight 1 · 20.0%',
        'Side 4: **4**: printed 4 · weight 1 · 20.0%',
        'A side comes up with its weight over the stone’s total weight (5).',
      ].join('\n'),
    );
  });

  it('a long list fits a message and says how many it left out', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    const out = fitLines('head', lines, 'tail');
    expect(out.length).toBeLessThanOrEqual(1900);
    expect(out).toMatch(/\n…and \d+ more: narrow the list with a filter\.\ntail$/);
    const shown = out.split('\n').filter((l) => l.startsWith('line ')).length;
    expect(out).toContain(`…and ${300 - shown} more`);
  });
});

describe('collection button ids', () => {
  it('are made and parsed back; malformed or foreign ids are not ours', () => {
    const schemes = [collectionRoutes];
    expect(collectionRoutes.make('trash', 31)).toBe('kc:trash:31');
    expect(parseCollectionId('kc:trash:31', schemes)?.args).toEqual([31]);
    expect(parseCollectionId('kc:trash:031', schemes)).toBeNull();
    expect(parseCollectionId('kc:trash:31:9', schemes)).toBeNull();
    expect(parseCollectionId('kc:burn:31', schemes)).toBeNull();
    expect(parseCollectionId('kr:trash:31', schemes)).toBeNull();
    expect(parseCollectionId('kc:toString:1', schemes)).toBeNull();
    expect(() => collectionRoutes.make('burn', 1)).toThrow(/no collection route/);
  });

  it('need a prefix other than the game’s own ids', () => {
    const clash = { ...krellstones, collectionRoutes: defineCollectionRoutes('kr', { x: { args: z.tuple([idArg]), handle: async () => {} } }) };
    expect(() => checkModule(clash as GameModule)).toThrow(/collection routes need a prefix of their own/);
    expect(() => checkModule(krellstones as GameModule)).not.toThrow();
  });
});
