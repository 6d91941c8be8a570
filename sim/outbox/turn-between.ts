/**
 * Where an answer turns between two values asked: the first in (`lo`,
 * `hi`] whose answer is not `before` (the answer at `lo`), found by
 * halving (one turn per gap is placed; a gap with more shows one of them).
 * The probes of a rule set's decisions place their changes so: a record's
 * numbers and the clock (thresholds.ts), a body's size (body-probe.ts).
 */
export function turnBetween(ask: (x: number) => string, lo: number, hi: number, before: string): number {
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (ask(mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}
