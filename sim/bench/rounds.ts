/**
 * Side-by-side timing of two ways to run the same work (1 against 2 workers):
 * rounds alternate which runs first, since the machine's speed drifts and its
 * noise comes in bursts, and the ratio is read best against best and round by round.
 */

/** `rounds` rounds of `one` and `two`; the order switches each round so that neither always runs first. */
export async function alternatedRounds<T>(rounds: number, one: () => Promise<T>, two: () => Promise<T>): Promise<{ one: T[]; two: T[] }> {
  const a: T[] = [];
  const b: T[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      a.push(await one());
      b.push(await two());
    } else {
      b.push(await two());
      a.push(await one());
    }
  }
  return { one: a, two: b };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Speed-up of `two` over `one` from their seconds: best against best, in each round, and the median of the rounds. */
export interface Speedup {
  oneBest: number;
  twoBest: number;
  best: number;
  rounds: number[];
  median: number;
}

export function speedup(one: readonly number[], two: readonly number[]): Speedup {
  const oneBest = Math.min(...one);
  const twoBest = Math.min(...two);
  const rounds = one.map((o, r) => o / two[r]);
  return { oneBest, twoBest, best: oneBest / twoBest, rounds, median: median(rounds) };
}

/** The last three cells of a ratio table row: best against best (bold), each round, the median. */
export function speedupCells(s: Speedup): string {
  return `**${s.best.toFixed(2)}x** | ${s.rounds.map((x) => `${x.toFixed(2)}x`).join(', ')} | ${s.median.toFixed(2)}x`;
}
