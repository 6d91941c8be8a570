/**
 * Item "publish sees the claim" (docs/rules.md, 'What publish sees of the claim'): a newer body for
 * an id whose record is READY supersedes the queued one with a fresh cycle
 * ("the latest result wins").
 *
 * Mistake: it ignores `view.claim`. While another engine holds the claim it
 * may be mid-attempt with the old body; its completion then marks the new
 * body DELIVERED although the broker holds the old one (no-phantom-delivery).
 * `admit-respects-claim.ts` supersedes only when no live engine holds the claim.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { digestOf } from '../../model/record.ts';
import { extendRules, type AdmitView, type RuleSet } from '../../model/rules.ts';

/** The superseding write, or null when the body is not a newer one for a READY record. */
export function supersede(view: AdmitView): ReturnType<RuleSet['admit']> | null {
  const { read, body } = view;
  if (read.kind !== 'found' || read.record.status !== 'READY' || read.record.payload === body) return null;
  const r = read.record;
  return { kind: 'write', record: { ...r, payload: body, digest: digestOf(body), attempts: 0, resendEpoch: r.resendEpoch + 1, inFlight: false, unknownSeen: false } };
}

const admitIgnoresClaim: RuleSet = extendRules(failClosed, {
  name: 'admit-ignores-claim',
  summary: 'fail-closed, but a newer body supersedes a READY record with a fresh cycle whatever its claim.',
  admit: (view) => supersede(view) ?? failClosed.admit(view),
});

export default admitIgnoresClaim;
