/**
 * Knucklebones scoring (RULINGS.md): each die in a column scores its value times the number of
 * dice of that value in the same column; a grid's total is the sum of its three column scores.
 *
 *   [4,4,2] = 4x2 + 4x2 + 2 = 18      [3,3,3] = 27      [6,5,1] = 12
 */

/** Score of one column: the sum over its dice of value × (count of that value in the column). */
export function scoreColumn(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let total = 0;
  for (const v of values) total += v * (counts.get(v) ?? 0);
  return total;
}

/** Total of a grid: the sum of its column scores. */
export function scoreGrid(columns: readonly (readonly number[])[]): number {
  let total = 0;
  for (const c of columns) total += scoreColumn(c);
  return total;
}
