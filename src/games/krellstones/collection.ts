import { z } from 'zod';
import { nextInt, weightedIndex, type RngState } from '../../kernel/rng.ts';
import { RuleError } from '../../kernel/types.ts';
import {
  BASE_SIDE_WEIGHT,
  FACE_PACK_SIZE,
  FACE_WEIGHT_ODDS,
  LOADOUT,
  PROMO_ONE_IN,
  SLOT_TYPES,
  STARTER_KIT,
  STONE_KINDS,
  STONE_TYPES,
  allowedValues,
  isAllowedValue,
  type StoneType,
} from './data.ts';

/**
 * Krellstones collection: the pure functions the collection service uses (no database, no
 * Discord). Stones and faces are plain JSON, validated by the zod schemas below when the service
 * loads them as typed assets. Randomness comes only from a seeded generator passed in and handed
 * back advanced (kernel/rng.ts), so a purchase can be replayed from its seed.
 *
 * Sides are numbered from 1, as players name them (`KRELLSTONE SLOT <stone> <side#> <face#>`).
 * Identity (asset ids, aliases, which game a stone is in) is the service's business: a stone here
 * is its type and sides, a face its type, value, weight and promo flag.
 */

function fail(code: string, message: string): never {
  throw new RuleError(`krellstones/${code}`, message);
}

export const stoneTypeSchema = z.enum(STONE_TYPES);

const faceObject = z
  .object({
    /** The stone type the face fits. */
    type: stoneTypeSchema,
    /** The value the side shows once the face is slotted (within the type's range). */
    value: z.number().int(),
    /** Added to the side's base weight of 1. */
    weight: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    promo: z.boolean(),
  })
  .strict();

/** A face: compatible with one stone type, a value in that type's range, weight 0/1/2, promo or not. */
export const faceSchema = faceObject.superRefine((f, ctx) => {
  if (!isAllowedValue(f.type, f.value)) ctx.addIssue({ code: 'custom', message: `a ${STONE_KINDS[f.type].name} face cannot show ${f.value}`, path: ['value'] });
});
export type Face = z.infer<typeof faceSchema>;

/** A side: the value printed on it, and the face slotted into it, if any. */
export const sideSchema = z.object({ printed: z.number().int(), face: faceSchema.nullable() }).strict();
export type Side = z.infer<typeof sideSchema>;

/** The fields of a stone, for schemas that add their own (the engine adds an id). */
export const stoneShape = { type: stoneTypeSchema, sides: z.array(sideSchema) };

/**
 * The consistency of a stone: the type's number of sides, printed values within the range and
 * distinct, faces of the stone's type, and distinct values shown (printed or slotted).
 */
export function checkStone(s: { type: StoneType; sides: Side[] }, ctx: z.RefinementCtx): void {
  const kind = STONE_KINDS[s.type];
  if (s.sides.length !== kind.sides) ctx.addIssue({ code: 'custom', message: `a ${kind.name} has ${kind.sides} sides, not ${s.sides.length}`, path: ['sides'] });
  s.sides.forEach((side, i) => {
    if (!isAllowedValue(s.type, side.printed)) ctx.addIssue({ code: 'custom', message: `a ${kind.name} cannot have ${side.printed} printed`, path: ['sides', i, 'printed'] });
    if (side.face && side.face.type !== s.type) ctx.addIssue({ code: 'custom', message: `a ${STONE_KINDS[side.face.type].name} face on a ${kind.name}`, path: ['sides', i, 'face'] });
  });
  if (new Set(s.sides.map((x) => x.printed)).size !== s.sides.length) ctx.addIssue({ code: 'custom', message: 'printed values must be distinct', path: ['sides'] });
  if (new Set(s.sides.map(sideValue)).size !== s.sides.length) ctx.addIssue({ code: 'custom', message: 'the values shown must be distinct', path: ['sides'] });
}

/** A stone: its type and its sides (printed value, slotted face or none). */
export const stoneSchema = z.object(stoneShape).strict().superRefine(checkStone);
export type Stone = z.infer<typeof stoneSchema>;

/** The value a side shows: the slotted face's, else the printed one. */
export function sideValue(side: Side): number {
  return side.face ? side.face.value : side.printed;
}

/** A side's weight: 1, plus the slotted face's weight. */
export function sideWeight(side: Side): number {
  return BASE_SIDE_WEIGHT + (side.face ? side.face.weight : 0);
}

/** The values the stone's sides show now, side 1 first. */
export function currentValues(stone: Stone): number[] {
  return stone.sides.map(sideValue);
}

function copyStone(stone: Stone): Stone {
  return { type: stone.type, sides: stone.sides.map((s) => ({ printed: s.printed, face: s.face ? { ...s.face } : null })) };
}

function sideIndex(stone: Stone, side: number): number {
  if (!Number.isInteger(side) || side < 1 || side > stone.sides.length) {
    fail('no-such-side', `A ${STONE_KINDS[stone.type].name} has sides 1 to ${stone.sides.length}; there is no side ${side}.`);
  }
  return side - 1;
}

/**
 * Slots `face` into side `side` (1-based). Refused when the face is for another stone type
 * (`wrong-stone-type`), when the side already holds a face (`side-has-face`: unslot first), and when
 * the face's value repeats the value another side shows now (`value-repeats`). The side then shows
 * the face's value and weighs 1 + the face's weight. Returns a new stone.
 */
export function slot(stone: Stone, side: number, face: Face): Stone {
  const i = sideIndex(stone, side);
  const name = STONE_KINDS[stone.type].name;
  if (face.type !== stone.type) fail('wrong-stone-type', `That face fits a ${STONE_KINDS[face.type].name}, not a ${name}.`);
  const target = stone.sides[i]!;
  if (target.face) fail('side-has-face', `Side ${side} already holds a face; unslot it first.`);
  const clash = stone.sides.findIndex((s, k) => k !== i && sideValue(s) === face.value);
  if (clash >= 0) fail('value-repeats', `Side ${clash + 1} already shows ${face.value}; the sides of a stone must show different numbers.`);
  const next = copyStone(stone);
  next.sides[i] = { printed: target.printed, face: { ...face } };
  return next;
}

/**
 * Takes the face out of side `side` (1-based): refused when the side holds no face (`no-face`) and
 * when its printed value would repeat the value another side shows (`value-repeats`). Returns the
 * new stone and the face.
 */
export function unslot(stone: Stone, side: number): [Stone, Face] {
  const i = sideIndex(stone, side);
  const target = stone.sides[i]!;
  if (!target.face) fail('no-face', `Side ${side} holds no face.`);
  const clash = stone.sides.findIndex((s, k) => k !== i && sideValue(s) === target.printed);
  if (clash >= 0) fail('value-repeats', `Side ${clash + 1} shows ${target.printed}, the number printed under this face; unslot that side first.`);
  const next = copyStone(stone);
  next.sides[i] = { printed: target.printed, face: null };
  return [next, { ...target.face }];
}

/**
 * Takes every face out at once (`UNSLOT <stone> ALL`): never refused, since printed values are
 * distinct. Returns the new stone and the faces, side 1's first.
 */
export function unslotAll(stone: Stone): [Stone, Face[]] {
  const faces = stone.sides.flatMap((s) => (s.face ? [{ ...s.face }] : []));
  return [{ type: stone.type, sides: stone.sides.map((s) => ({ printed: s.printed, face: null })) }, faces];
}

/** Each side's chance to come up: its weight over the stone's total weight. */
export function rollChances(stone: Stone): { side: number; value: number; weight: number; chance: number }[] {
  const weights = stone.sides.map(sideWeight);
  const total = weights.reduce((a, b) => a + b, 0);
  return stone.sides.map((s, i) => ({ side: i + 1, value: sideValue(s), weight: weights[i]!, chance: weights[i]! / total }));
}

/** A weighted roll (`KRELLSTONE ROLL`): the side (1-based) that comes up and its value. */
export function rollStone(stone: Stone, rng: RngState): [{ side: number; value: number }, RngState] {
  const [i, next] = weightedIndex(rng, stone.sides.map(sideWeight));
  return [{ side: i + 1, value: sideValue(stone.sides[i]!) }, next];
}

/**
 * A new stone of `type`: its sides get distinct random values within the type's range (a draw
 * without replacement from the range, side 1 first), no faces.
 */
export function newStone(type: StoneType, rng: RngState): [Stone, RngState] {
  const pool = allowedValues(type);
  const sides: Side[] = [];
  let r = rng;
  for (let k = 0; k < STONE_KINDS[type].sides; k++) {
    const [j, next] = nextInt(r, pool.length);
    r = next;
    sides.push({ printed: pool[j]!, face: null });
    pool.splice(j, 1);
  }
  return [{ type, sides }, r];
}

/**
 * A new face: its stone type (uniform over the four when not given), a value uniform within the
 * type's range, a weight drawn 0/1/2 with 70/25/5%, promo one time in ten. Draws in that order.
 */
export function newFace(rng: RngState, type?: StoneType): [Face, RngState] {
  let r = rng;
  let t = type;
  if (t === undefined) {
    const [k, next] = nextInt(r, STONE_TYPES.length);
    r = next;
    t = STONE_TYPES[k]!;
  }
  const values = allowedValues(t);
  const [vi, r1] = nextInt(r, values.length);
  const [wi, r2] = weightedIndex(r1, FACE_WEIGHT_ODDS.map((o) => o.percent));
  const [p, r3] = nextInt(r2, PROMO_ONE_IN);
  return [{ type: t, value: values[vi]!, weight: FACE_WEIGHT_ODDS[wi]!.weight, promo: p === 0 }, r3];
}

/** A face pack: three random faces. */
export function facePack(rng: RngState): [Face[], RngState] {
  const faces: Face[] = [];
  let r = rng;
  for (let k = 0; k < FACE_PACK_SIZE; k++) {
    const [f, next] = newFace(r);
    faces.push(f);
    r = next;
  }
  return [faces, r];
}

/** A starter kit: new stones for one loadout (pawn, dancer, three krells, master), one mat, two random faces. */
export function starterKit(rng: RngState): [{ stones: Stone[]; mats: number; faces: Face[] }, RngState] {
  let r = rng;
  const stones: Stone[] = [];
  for (const type of SLOT_TYPES) {
    const [s, next] = newStone(type, r);
    stones.push(s);
    r = next;
  }
  const faces: Face[] = [];
  for (let k = 0; k < STARTER_KIT.faces; k++) {
    const [f, next] = newFace(r);
    faces.push(f);
    r = next;
  }
  return [{ stones, mats: STARTER_KIT.mats, faces }, r];
}

/**
 * READY with fewer than six stones selected: fills the loadout at random from the player's other
 * stones (`owned`: what they may bring, without their sideboard). Refused when a chosen id is not
 * owned (`not-owned`) or repeated (`duplicate-stone`), when more of a type are chosen than the
 * loadout takes (`too-many`), and when the player lacks stones of a type (`missing-stones`, the
 * message says what is missing). Returns the six ids in slot order (pawn, dancer, krells, master;
 * chosen krells first, in the order given).
 */
export function completeSelection(
  owned: readonly { id: string; type: StoneType }[],
  chosen: readonly string[],
  rng: RngState,
): [string[], RngState] {
  if (new Set(chosen).size !== chosen.length) fail('duplicate-stone', 'Each stone can be selected only once.');
  const byId = new Map(owned.map((s) => [s.id, s]));
  const picked: Record<StoneType, string[]> = { pawn: [], dancer: [], krell: [], master: [] };
  for (const id of chosen) {
    const s = byId.get(id);
    if (!s) fail('not-owned', `You do not have the stone ${id} to bring.`);
    picked[s.type].push(id);
  }
  const missing: string[] = [];
  for (const type of STONE_TYPES) {
    if (picked[type].length > LOADOUT[type]) fail('too-many', `A game takes ${LOADOUT[type]} ${STONE_KINDS[type].name}${LOADOUT[type] > 1 ? 's' : ''}; you selected ${picked[type].length}.`);
    const spare = owned.filter((s) => s.type === type && !chosen.includes(s.id)).length;
    const need = LOADOUT[type] - picked[type].length;
    if (spare < need) missing.push(`${need - spare} ${STONE_KINDS[type].name}${need - spare > 1 ? 's' : ''}`);
  }
  if (missing.length) fail('missing-stones', `You need more stones to play: ${missing.join(', ')} missing.`);
  let r = rng;
  for (const type of STONE_TYPES) {
    const pool = owned.filter((s) => s.type === type && !chosen.includes(s.id)).map((s) => s.id);
    while (picked[type].length < LOADOUT[type]) {
      const [j, next] = nextInt(r, pool.length);
      r = next;
      picked[type].push(pool[j]!);
      pool.splice(j, 1);
    }
  }
  return [[...picked.pawn, ...picked.dancer, ...picked.krell, ...picked.master], r];
}
