import { createHash } from 'node:crypto';
import { newStone, sideValue, starterKit, type Face, type Side } from '../../src/games/krellstones/collection.ts';
import { krellstones, type BroughtStone, type KrellstonesMove, type KrellstonesState } from '../../src/games/krellstones/engine/index.ts';
import { rngFromSeed } from '../../src/kernel/rng.ts';
import { SYSTEM } from '../../src/kernel/types.ts';

/**
 * The newcomers' game of the browser test (krellstones.test.ts) as a script played on the engine
 * alone, so that a seed can be chosen for which a Pup in the Hangar happens (the Yell! form then
 * appears deterministically). Every draw in the test comes from that one seed (the harness's
 * `seeds`): the three free starter kits are the same kit, and the game's dice are the seed's.
 *
 * The script: Alice, Bob and Carol each claim the kit; Alice slots the kit's first face into the
 * first stone of its type, on the first side the slot autocomplete offers; a moderator grants her a
 * Krell (made from the same seed), which she puts on her sideboard; she hosts 2 rounds at FAST
 * pace with a sideboard of 1, Bob then Carol join, everyone readies with the whole kit. Every
 * Pup's owner yells at once. Round 1's rerolls: Alice rerolls the first of her stones in play (the
 * panel's first option), Bob and Carol reroll nothing; between the rounds Alice swaps the granted
 * Krell in for her first Krell; round 2: nobody rerolls.
 */

export const ROUNDS = 2;
export const PLAYERS = ['alice', 'bob', 'carol'] as const;

/** Which face Alice slots, where: what the slot form's autocomplete offers first. */
export function slotPlan(seed: string): { face: Face; stoneIndex: number; side: number } {
  const [kit] = starterKit(rngFromSeed(seed));
  const face = kit.faces[0]!;
  const stoneIndex = kit.stones.findIndex((s) => s.type === face.type);
  const sides = kit.stones[stoneIndex]!.sides;
  const side = sides.findIndex((s, i) => !s.face && !sides.some((o, j) => j !== i && sideValue(o) === face.value)) + 1;
  return { face, stoneIndex, side };
}

function brought(seed: string, who: string): BroughtStone[] {
  const [kit] = starterKit(rngFromSeed(seed));
  const plan = slotPlan(seed);
  return kit.stones.map((st, i) => {
    const sides: Side[] = who === 'alice' && i === plan.stoneIndex ? st.sides.map((x, k) => (k === plan.side - 1 ? { ...x, face: plan.face } : x)) : st.sides;
    return { id: `${who}-${i}`, type: st.type, sides };
  });
}

/** The Krell a moderator grants (one stone, from the seed). */
export function grantedKrell(seed: string): BroughtStone {
  const [st] = newStone('krell', rngFromSeed(seed));
  return { id: 'alice-granted', type: st.type, sides: st.sides };
}

export interface ScriptEvents {
  pups: Array<{ round: number; player: string }>;
  outcome: KrellstonesState['outcome'];
}

export function simulate(seed: string): ScriptEvents {
  const playerData = Object.fromEntries(PLAYERS.map((p) => [p, { stones: brought(seed, p), sideboard: p === 'alice' ? [grantedKrell(seed)] : [] }]));
  let s = krellstones.setup({ players: [...PLAYERS], seed, options: { rounds: ROUNDS, rerolls: true, sideboard: 1, pace: 'FAST', host: 'alice' }, playerData });
  const apply = (actor: string, move: KrellstonesMove) => (s = krellstones.apply(s, actor, move));
  const pups: ScriptEvents['pups'] = [];
  for (let guard = 0; s.outcome === null && guard < 500; guard++) {
    if (s.phase === 'rolling') {
      for (const p of s.windows) {
        pups.push({ round: s.round, player: p });
        apply(p, { type: 'yell', text: 'KRELLSTONES!' });
      }
      const sys = krellstones.timers(s).find((t) => t.player === undefined)!;
      apply(SYSTEM, (sys.onExpiry as { move: KrellstonesMove }).move);
      continue;
    }
    const pending = PLAYERS.find((p) => s.seats[p]!.choice === 'pending');
    if (s.phase === 'rerolls' && pending) {
      const seat = s.seats[pending]!;
      if (pending === 'alice' && s.round === 1) {
        const first = seat.active.find((_, i) => seat.stones[i]!.status === 'in');
        apply(pending, { type: 'select', stones: first ? [first.id] : [] });
      }
      apply(pending, { type: 'ready' });
      continue;
    }
    if (s.phase === 'swaps' && pending === 'alice') {
      const seat = s.seats.alice!;
      if (seat.sideboard.length) apply('alice', { type: 'swap', in: seat.sideboard[0]!.id, out: seat.active.find((x) => x.type === 'krell')!.id });
      apply('alice', { type: 'ready' });
      continue;
    }
    throw new Error(`script stuck in ${s.phase}`);
  }
  return { pups, outcome: s.outcome };
}

/** The first seed of a fixed list whose game has one Pup in the Hangar and one winner. */
export function scriptSeed(): string {
  for (let i = 0; i < 2000; i++) {
    const seed = createHash('sha256').update(`krellstones-browser:${i}`).digest('hex');
    const e = simulate(seed);
    if (e.pups.length === 1 && e.outcome?.winners.length === 1) return seed;
  }
  throw new Error('no seed found');
}
