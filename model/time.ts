/**
 * Time in the rule API (docs/rules.md, 'Time'): the world's logical clock as
 * decisions see it, leases on claims, and fencing as a decision of the rule
 * set rather than a law of the world.
 *
 * The clock counts ticks, not seconds: a world with a clock advances it by
 * one with each `tick` event (time passing between steps) and by a lease's
 * length when an engine stalls (a pause: the world runs on, the engine does
 * not). A world without a clock shows every decision `now: 0`.
 */

/**
 * What a decision sees of the clock. Decisions are pure: the same `now`,
 * record and claim give the same answer, so a rule that waits for a window
 * says so by comparing `now` with a time it wrote on the record.
 */
export interface TimeView {
  /** The world's logical clock, in ticks (0 in a world without a clock). */
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
