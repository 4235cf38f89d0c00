/** A point of the cost vs task-pass plane: lower cost and higher pass are better. */
export interface CostPassPoint {
  cost: number | null;
  pass: number | null;
}

/**
 * Which points are on the Pareto front: no other point is at least as cheap
 * and at least as good, and strictly better in one of the two. Points with a
 * null coordinate are never on it. O(k log k).
 */
export function paretoFront(points: readonly CostPassPoint[]): boolean[] {
  const order = points
    .map((p, i) => ({ ...p, i }))
    .filter((p): p is { cost: number; pass: number; i: number } => p.cost !== null && p.pass !== null)
    .sort((a, b) => a.cost - b.cost || b.pass - a.pass);
  const front = new Array<boolean>(points.length).fill(false);
  let best = -Infinity;
  for (let k = 0; k < order.length; k++) {
    const p = order[k]!;
    // Equal cost and equal pass: identical points are all on the front (neither dominates).
    const previous = order[k - 1];
    const tiesPrevious = previous && previous.cost === p.cost && previous.pass === p.pass && front[previous.i];
    if (p.pass > best || tiesPrevious) {
      front[p.i] = true;
      best = Math.max(best, p.pass);
    }
  }
  return front;
}
