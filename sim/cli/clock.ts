/**
 * Wall-clock time, for reporting only (seconds in a summary, states per
 * second). Nothing a run decides depends on it, so determinism is untouched.
 */
export type Clock = bigint;

export function startClock(): Clock {
  return process.hrtime.bigint();
}

export function elapsedSeconds(start: Clock): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
