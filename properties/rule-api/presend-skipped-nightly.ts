/**
 * fail-closed with a nightly maintenance window: while the database is
 * vacuumed, 01:30 to 02:00 UTC, the relay skips its pre-send write (one
 * write less per message at the busiest half hour of the job). A send cut
 * in that half hour (a crash in the POST after the broker stored the body,
 * a lost reply) then leaves no evidence on the record, and a refusal of the
 * retry parks `permanent-refusal` over a body the broker holds
 * (honest-park). The clock must read 01:30 at a pre-send: `check` finds the
 * window by probing the decisions' clock and steers seeds there
 * (docs/properties.md, 'Long life'); random long waits almost never land in
 * it.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;

/** Minutes after midnight UTC the window opens and closes. */
export const WINDOW = { from: 90, to: 120 } as const;

/** Whether `now` (milliseconds since 1970) falls in the nightly window. */
export function inWindow(now: number): boolean {
  const minute = Math.floor((now % DAY) / MINUTE);
  return minute >= WINDOW.from && minute < WINDOW.to;
}

const presendSkippedNightly: RuleSet = extendRules(failClosed, {
  name: 'presend-skipped-nightly',
  summary: 'fail-closed that skips the pre-send write from 01:30 to 02:00 UTC (a maintenance window).',
  preSend: (record, view) => (view !== undefined && inWindow(view.now) ? { ...record } : failClosed.preSend(record, view)),
});
export default presendSkippedNightly;
