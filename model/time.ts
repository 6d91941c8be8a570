/**
 * Time in the rule API (docs/rules.md, 'Time'): the world's logical clock as
 * decisions see it, leases on claims, and fencing as a decision of the rule
 * set rather than a law of the world.
 *
 * The clock counts ticks, not seconds: a world with a clock advances it by
 * one with each `tick` event (time passing between steps) and by a lease's
 * length when an engine stalls (a pause: the world runs on, the engine does
 * not). A decision sees it as a wall clock reads, {@link TIME_ORIGIN} plus
 * the ticks; a world without a clock shows every decision `now` at the
 * origin.
 */

/**
 * What `now` reads at tick 0: a wall clock's milliseconds (2023-11-14), not
 * 0. A real clock never reads 0, and a clock that did made two mistakes of
 * its own (docs/rules.md, 'Time'): `if (record.unknownSince)` read a stamp
 * written at 0 as no stamp, a false alarm; and a time field that a
 * migration fills with 0 looked a moment old instead of decades, so a
 * window measured from it (`now - firstTriedAt > 20`) never closed at once,
 * as it does in production.
 */
export const TIME_ORIGIN = 1_700_000_000_000;

/**
 * What a decision sees of the clock. Decisions are pure: the same `now`,
 * record and claim give the same answer, so a rule that waits for a window
 * says so by comparing `now` with a time it wrote on the record.
 */
export interface TimeView {
  /** The world's logical clock: {@link TIME_ORIGIN} plus its ticks (the origin in a world without a clock). */
  now: number;
}

/**
 * The writes (and the POST) an engine makes while it believes it holds the
 * claim: before each, a fenced engine checks that the claim token is still
 * its own and abandons the attempt when it is not; an unfenced one goes
 * ahead, and the world lets it (a stale holder whose lease expired then
 * writes and POSTs beside the engine that took its claim over).
 */
export const FENCED_WRITES = ['pre-send', 'post', 'complete', 'release'] as const;
export type FencedWrite = (typeof FENCED_WRITES)[number];

/** The part of a rule set that decides fencing (optional: absent, every write is fenced). */
export interface Fencing {
  /**
   * Whether this write checks the claim token first (`true`: fenced, as
   * `UPDATE ... WHERE claim_token = ?`; `false`: unfenced). Asked before each
   * write of an attempt; the answer may differ per write (a relay may fence
   * its completion write but not its POST, which the broker cannot check).
   */
  fences?(write: FencedWrite): boolean;
}

/** Whether an engine of `rules` checks its claim before `write` (default: fenced). */
export function fencesWrite(rules: Fencing, write: FencedWrite): boolean {
  return rules.fences === undefined || rules.fences(write);
}
