import { stateSchema, type KrellstonesState } from './engine/index.ts';

/**
 * What `npm run replay` prints of a Krellstones game: round 1's positions (the only draw at setup),
 * then every roll as it happened (each stone's side and value, drawn from the seed's generator with
 * the weights snapshotted at the start), every reroll, and each round's sums and winner; then the
 * outcome. The seed is public once the game is over, so anyone can re-derive every roll.
 */
export function replayNotes(states: readonly unknown[]): string[] {
  const parsed = states.map((s) => stateSchema.parse(s) as KrellstonesState);
  const out: string[] = [];
  const first = parsed[0];
  if (!first) return out;
  const shown = (s: KrellstonesState, p: string, only?: (i: number) => boolean) =>
    s.seats[p]!.active
      .map((st, i) => {
        const r = s.seats[p]!.stones[i]!;
        if (only && !only(i)) return null;
        return r.side === null ? `${st.type} #${st.id} -` : `${st.type} #${st.id} side ${r.side + 1} = ${st.sides[r.side]!.value}`;
      })
      .filter((x) => x !== null)
      .join(', ');
  out.push(`round 1 positions (shuffled with the seed): ${first.order.join(', ')}`);
  for (let i = 1; i < parsed.length; i++) {
    const before = parsed[i - 1]!;
    const s = parsed[i]!;
    if (s.round === before.round && s.phase === 'rolling' && s.rolled > before.rolled) {
      const p = s.order[s.rolled - 1]!;
      out.push(`round ${s.round}: ${p} rolls ${shown(s, p, (k) => before.seats[p]!.stones[k]!.status === 'unrolled')}`);
    }
    if (before.phase === 'rerolls' && s.phase !== 'rerolls') {
      // The selections were secret until the rerolls (the values rerolled show in the round's sums).
      for (const p of before.order) {
        const sel = before.seats[p]!.selection;
        if (sel.length) out.push(`round ${before.round}: ${p} rerolls #${sel.join(', #')}`);
      }
    }
    if (s.history.length > before.history.length) {
      const r = s.history.at(-1)!;
      out.push(`round ${r.round} scored: ${r.order.map((p) => `${p} ${r.sums[p]}${r.busted.includes(p) ? ' (bust)' : ''}`).join(', ')}; ${r.winner ? `${r.winner} wins` : 'nobody wins'}${r.reversed ? ' (Pawn is Queen)' : ''}; ${r.announcements.map((a) => a.text).join(' · ') || 'no effects'}`);
    }
  }
  const last = parsed.at(-1)!;
  if (last.outcome) {
    const o = last.outcome;
    out.push(`outcome (${o.reason}): ${o.winners.length ? `${o.winners.join(' and ')} win${o.winners.length === 1 ? 's' : ''}` : 'a draw'}; rounds won ${last.players.map((p) => `${p} ${o.scores?.[p] ?? 0}`).join(', ')}`);
  }
  return out;
}
