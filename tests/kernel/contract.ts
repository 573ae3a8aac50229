import { expect } from 'vitest';
import { autopilotMove, autopilotRng, nextInt, rngFromSeed, RuleError, SYSTEM, type AnyEngine, type PlayerId, type ReplayEntry, replayWith } from '../../src/kernel/index.ts';

/**
 * The engine contract, checked the same way for every game over many random games played
 * through `legalMoves` (random seats, forfeits now and then, SYSTEM timers fired as the
 * scheduler would): every listed move is accepted by `apply`; candidate moves that are not
 * listed are refused with a RuleError; states and views survive JSON; timers are well formed and
 * their expiry moves are legal; the autopilot picks listed moves; replay reproduces every state;
 * and every game ends within `maxSteps`.
 */
export interface ContractOptions<State, Move> {
  engine: AnyEngine;
  /** Setup arguments for game number `i` (players, options, playerData; the seed is drawn here). */
  setup(i: number): { players: PlayerId[]; options: unknown; playerData?: Record<PlayerId, unknown> };
  games: number;
  maxSteps: number;
  /** Moves that might be legal now (the test checks: accepted only if listed). */
  candidates?(state: State, player: PlayerId): Move[];
  /** Two moves that mean the same (default: equal JSON). */
  same?(a: Move, b: Move): boolean;
  /** Invariants to check after every step. */
  check?(state: State): void;
  /** 0..1: chance per step that a random awaited player forfeits (default 0.01). */
  forfeitRate?: number;
  /** At most this many listed moves (a random sample) are applied per player and step (default 12). */
  sample?: number;
}

const hexSeed = (i: number, salt: string) => {
  let r = rngFromSeed('0'.repeat(63) + '1');
  r = { seed: r.seed, n: i * 7919 + salt.length };
  let out = '';
  for (let k = 0; k < 8; k++) {
    const [w, next] = nextInt(r, 2 ** 32);
    r = next;
    out += w.toString(16).padStart(8, '0');
  }
  return out;
};

export function checkEngineContract<State, Move>(opts: ContractOptions<State, Move>): { games: number; steps: number; outcomes: Record<string, number> } {
  const { engine } = opts;
  const same = opts.same ?? ((a: Move, b: Move) => JSON.stringify(a) === JSON.stringify(b));
  let steps = 0;
  const outcomes: Record<string, number> = {};
  for (let g = 0; g < opts.games; g++) {
    const args = opts.setup(g);
    const seed = hexSeed(g, engine.id);
    let state = engine.setup({ seed, players: args.players, options: args.options, ...(args.playerData ? { playerData: args.playerData } : {}) }) as State;
    const log: ReplayEntry<Move>[] = [];
    let picker = rngFromSeed(hexSeed(g + 100_000, engine.id));
    const pick = (n: number) => {
      const [v, r] = nextInt(picker, n);
      picker = r;
      return v;
    };
    const fail = (message: string): never => {
      throw new Error(`${engine.id}, game ${g} (seed ${seed}), step ${n}: ${message}`);
    };
    let n = 0;
    for (; n < opts.maxSteps && engine.outcome(state) === null; n++) {
      const roundTrip = JSON.parse(JSON.stringify(state));
      const parsed = engine.stateSchema.safeParse(roundTrip);
      if (!parsed.success) fail(`state fails its schema: ${parsed.error.message}`);
      const publicView = JSON.stringify(engine.view(state, null));
      if (JSON.stringify(JSON.parse(publicView)) !== publicView) fail('the public view does not survive JSON');
      opts.check?.(state);
      const awaiting = engine.awaiting(state) as PlayerId[];
      const timers = engine.timers(state);
      const keys = timers.map((t) => `${t.key}|${t.player ?? ''}`);
      if (new Set(keys).size !== keys.length) fail(`timer identities must be unique: ${keys.join(', ')}`);
      for (const t of timers) {
        if (t.player !== undefined && !args.players.includes(t.player)) fail(`timer ${t.key} waits for ${t.player}, who is not seated`);
        if (typeof t.after === 'object' && !(t.after.ms > 0)) fail(`timer ${t.key} has no positive duration`);
      }
      const out = new Set(engine.out?.(state) ?? []);
      const movers = awaiting.filter((p) => engine.legalMoves(state, p).length > 0);
      for (const p of args.players) {
        const listed = engine.legalMoves(state, p) as Move[];
        if (!awaiting.includes(p) && listed.length > 0) fail(`${p} is not awaited but has moves`);
        const sample = opts.sample ?? 12;
        const tried = listed.length <= sample ? listed : Array.from({ length: sample }, () => listed[pick(listed.length)]!);
        for (const m of tried) {
          try {
            engine.apply(state, p, m);
          } catch (err) {
            fail(`listed move refused: ${JSON.stringify(m)}: ${(err as Error).message}`);
          }
        }
        const all = opts.candidates?.(state, p) ?? [];
        const some = all.length <= sample ? all : Array.from({ length: sample }, () => all[pick(all.length)]!);
        for (const c of some) {
          if (listed.some((m) => same(m, c))) continue;
          let refused: unknown = null;
          try {
            engine.apply(state, p, c);
          } catch (err) {
            refused = err;
          }
          if (!(refused instanceof RuleError)) fail(`unlisted move ${refused ? 'failed without a RuleError' : 'accepted'}: ${JSON.stringify(c)} (${String(refused)})`);
        }
      }
      // Forfeit now and then (a random seated player still in the game).
      const standing = args.players.filter((p) => !out.has(p));
      if (pick(1000) < (opts.forfeitRate ?? 0.01) * 1000 && standing.length > 0) {
        const p = standing[pick(standing.length)]!;
        state = engine.forfeit(state, p) as State;
        log.push({ actor: p, forfeit: true });
        steps++;
        continue;
      }
      let actor: PlayerId;
      let move: Move;
      if (movers.length > 0) {
        actor = movers[pick(movers.length)]!;
        const listed = engine.legalMoves(state, actor) as Move[];
        if (out.has(actor) || pick(4) === 0) {
          move = autopilotMove(engine, state, actor, autopilotRng(seed, n)) as Move;
          if (!listed.some((m) => same(m, move))) fail(`the autopilot chose an unlisted move: ${JSON.stringify(move)}`);
        } else move = listed[pick(listed.length)]!;
      } else {
        // Nobody can move by hand: a timer must advance the game (a SYSTEM step, or a default choice).
        const t = timers.find((x) => x.onExpiry.type === 'move');
        if (!t) fail('the game waits for nobody who can move and has no timer to advance it');
        actor = t!.player ?? SYSTEM;
        move = (t!.onExpiry as { move: Move }).move;
      }
      state = engine.apply(state, actor, move) as State;
      log.push({ actor, move });
      steps++;
    }
    const outcome = engine.outcome(state);
    expect(outcome, `${engine.id}: game ${g} did not end within ${opts.maxSteps} steps`).not.toBeNull();
    outcomes[outcome!.reason] = (outcomes[outcome!.reason] ?? 0) + 1;
    expect(engine.timers(state)).toEqual([]);
    for (const p of args.players) expect(engine.legalMoves(state, p)).toEqual([]);
    const replayed = replayWith(engine, seed, args.players, args.options, log, args.playerData);
    expect(replayed.at(-1)).toEqual(state);
  }
  return { games: opts.games, steps, outcomes };
}
