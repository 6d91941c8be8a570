/**
 * Whether a rule set reads the status QUEUED otherwise than READY, found
 * by probing its decisions as the id and body probes do (id-probe.ts,
 * body-probe.ts): every decision noted on a READY record (in the read an
 * admission was given, in the stored form a decision is shown) is asked
 * again with that record QUEUED, and its answer, QUEUED read back as
 * READY, compared. The delivery core treats the two alike (docs/rules.md,
 * 'Record status'); a rule set that answers them apart meets the
 * difference only beside a release that writes QUEUED, which the catalog's
 * rule sets never do: the suite then searches the skewed default world
 * again with such an older version (small-worlds.ts, `suiteQueued`;
 * queued-release.ts).
 */
import { canonicalJson } from '../core/canonical.ts';
import type { OutboxRecord, StoredFields } from '../../model/types.ts';
import type { AdmitView, RuleSet, SelectView, SweepView } from '../../model/rules.ts';
import type { ProbeCall } from './thresholds.ts';
import { mapped } from './body-probe.ts';

/** The status read back: an answer that only carries the status it was given compares equal. */
const BACK = new Map([['QUEUED', 'READY']]);

/** `view` with its stored form of the record (when it has one) QUEUED too. */
function storedQueued<V extends { stored?: StoredFields }>(view: V | undefined): V | undefined {
  if (view?.stored === undefined) return view;
  return { ...view, stored: { ...view.stored, raw: { ...view.stored.raw, status: 'QUEUED' } } };
}

/** Asks `call`'s decision again with its record `status` (and the stored form's, for QUEUED): its answer as text, QUEUED read back as READY. */
function askWithStatus(rules: RuleSet, call: ProbeCall, status: 'READY' | 'QUEUED'): string {
  const record = { ...call.record, status } as OutboxRecord;
  const queued = status === 'QUEUED';
  const answer = (): unknown => {
    switch (call.decision) {
      case 'preSend':
        return rules.preSend(record, queued ? storedQueued(call.view) : call.view);
      case 'complete':
        return rules.complete(record, call.outcome, call.limits, queued ? storedQueued(call.view) : call.view);
      case 'requeue':
        return rules.requeue(record, call.reset, queued ? storedQueued(call.view) : call.view);
      case 'selectable':
        return rules.selectable?.call(rules, record, call.view as SelectView) ?? true;
      case 'sweepable':
        return rules.sweepable?.call(rules, record, (queued ? storedQueued(call.view) : call.view) as SweepView) ?? false;
      case 'admit': {
        const { view } = call;
        if (view.read.kind !== 'found' || !queued) return rules.admit(view.read.kind === 'found' ? { ...view, read: { ...view.read, record } } : view);
        return rules.admit({ ...view, read: { ...view.read, record, stored: { ...view.read.stored, raw: { ...view.read.stored.raw, status } } } } as AdmitView);
      }
    }
  };
  try {
    return canonicalJson(mapped(answer(), BACK));
  } catch {
    // A decision that throws on one status answers so there (the check reports the throw where a run meets it).
    return 'throws';
  }
}

/**
 * The calls to ask: each as noted and, for an admission of a found record,
 * with the record's own body on offer and with another: the probe keeps one
 * call per case of a decision and status, and an admission of READY may
 * have been noted with either.
 */
function withBodies(call: ProbeCall): ProbeCall[] {
  if (call.decision !== 'admit' || call.view.read.kind !== 'found') return [call];
  const own = call.view.read.record.payload;
  const other = `${own}${own}-other`;
  return [{ ...call, view: { ...call.view, body: own } }, { ...call, view: { ...call.view, body: other } }];
}

/** Whether some decision of `rules`, asked as in `calls` on a READY record, answers otherwise when that record is QUEUED. */
export function probeQueued(rules: RuleSet, calls: readonly ProbeCall[]): boolean {
  for (const noted of calls) {
    if (noted.record.status !== 'READY' || (noted.decision === 'admit' && noted.view.read.kind !== 'found')) continue;
    for (const call of withBodies(noted)) if (askWithStatus(rules, call, 'READY') !== askWithStatus(rules, call, 'QUEUED')) return true;
  }
  return false;
}
