/**
 * Which of a rule set's decisions the swarm asked, and on which kind of
 * input (docs/properties.md, 'Which decisions a check asked'). A clean
 * verdict says nothing about a branch of a rule file that no run reached:
 * the report lists, per decision, the cases of input the runs met and the
 * ones none did, so that a reader sees whether the branch a change touched
 * (a parked id's new body, a claim held by a dead engine, a disposal after a
 * POST that was not confirmed) was asked at all.
 *
 * The cases are the input's shape as the world presents it (the record's
 * read and status, the claim, the attempt's outcome), never the rule set's
 * own fields, so that they mean the same for every rule set. Counting wraps
 * the rule set the seeds run (`watchedRules`): each decision marks its case,
 * then answers as the rule set does. The marks are per run (the seed loop
 * clears them before a run and counts them after), so the counts are those
 * of the seeds run, whatever thread ran them.
 */
import { sameSelectionKind, type AdmitView, type DisposeView, type RequeueView, type RuleSet, type SweepView } from '../../model/rules.ts';
import { FENCED_WRITES, type FencedWrite } from '../../model/time.ts';
import type { ClaimView, Outcome, OutboxRecord, Status, StoredFields } from '../../model/types.ts';

/** One case of one decision's input. */
export interface DecisionCase {
  decision: string;
  /** The case, in the words of the report. */
  name: string;
}

const cases: DecisionCase[] = [];

/** Appends one decision's cases, in the order given; their indices by key. */
function casesOf<K extends string>(decision: string, names: Readonly<Record<K, string>>): Readonly<Record<K, number>> {
  const at = {} as Record<K, number>;
  for (const key of Object.keys(names) as K[]) at[key] = cases.push({ decision, name: names[key] }) - 1;
  return at;
}

// `admit` (publish): how the id's record read, and whether the record holds the body on offer.
const ADMIT = casesOf('admit', {
  absent: 'no record',
  corrupt: 'corrupt record',
  unknown: 'record of an unknown schema',
  meta: 'record without payload (retained)',
  READY: 'READY, same body',
  READYnew: 'READY, new body',
  QUEUED: 'QUEUED, same body',
  QUEUEDnew: 'QUEUED, new body',
  DELIVERED: 'DELIVERED, same body',
  DELIVEREDnew: 'DELIVERED, new body',
  PARKED: 'PARKED, same body',
  PARKEDnew: 'PARKED, new body',
  damaged: 'record with a damaged field',
  claimLive: 'while a live engine holds the claim',
});

// `mayClaim`: the claim the engine meets.
const CLAIM = casesOf('mayClaim', {
  free: 'free',
  live: 'held by a live engine',
  dead: 'held by a dead engine',
  expired: 'held, lease expired',
  torn: 'torn',
  mine: 'held by itself (a predecessor under its identity)',
});

// `selectable` (a rule set that declares it): its answers.
const SELECT = casesOf('selectable', { yes: 'selected', no: 'passed over' });

// `preSend`: the record it is given.
const PRESEND = casesOf('preSend', { intact: 'intact record', damaged: 'record with a damaged field' });

// `complete`: the attempt's outcome, and the record it is given.
const COMPLETE = casesOf('complete', {
  confirmed: 'confirmed',
  definite: 'definite refusal',
  transient: 'transient',
  indeterminate: 'indeterminate',
  unclassified: 'unclassified',
  last: 'at the attempts limit',
  damaged: 'record with a damaged field',
} satisfies Record<Outcome | 'last' | 'damaged', string>);

// `requeue`: the operator's action.
// A resubmit takes a pending record, READY or QUEUED (events/operator.ts): each its own case, so that a
// QUEUED one no run reached is listed as not asked, not counted with the READY ones. An action taken while a
// live engine holds the id's claim (an attempt may be in flight) is counted besides: a rule's branch for it
// was asked or not, and the counts of the actions alone did not say (a blind review's question).
const REQUEUE = casesOf('requeue', { plain: 'requeue', reset: 'requeue, attempts reset', resubmit: 'resubmit (READY)', resubmitQueued: 'resubmit (QUEUED)', claimLive: 'while a live engine holds the claim', damaged: 'record with a damaged field' });

// `dispose`: what the pass did, and whether the file it read is still the live one.
// A newer copy of the very body read (an operator's restore of a file another engine quarantined) is a case of
// its own: a blind review's rule for it was never asked by a default check whose 'replaced or gone' count was large.
const DISPOSE = casesOf('dispose', { confirmed: 'POST confirmed', unconfirmed: 'POST not confirmed', noPost: 'no POST this pass', replaced: 'file replaced by another body, or gone', copy: 'file replaced by a copy of its body' });

// `fences` (a rule set that declares it): the write at which the engine found its claim gone.
const FENCES = casesOf('fences', Object.fromEntries(FENCED_WRITES.map((w) => [w, w])) as Record<FencedWrite, string>);

// `sweepable` (a rule set that declares it): the record the retention sweeper asks about, by status; one
// without payload (a tombstone) apart; and one with a damaged field besides.
const SWEEP = casesOf('sweepable', {
  DELIVERED: 'a DELIVERED record',
  PARKED: 'a PARKED record',
  pending: 'a pending record (READY or QUEUED)',
  meta: 'a record without payload (retained)',
  damaged: 'a record with a damaged field',
});

/** Every case, in the order the report lists them (grouped by decision). */
export const DECISION_CASES: readonly DecisionCase[] = cases;

/** The cases a run asked: one mark per case, cleared before each run. */
export class DecisionMarks {
  readonly asked = new Uint8Array(DECISION_CASES.length);

  clear(): void {
    this.asked.fill(0);
  }

  /** Adds this run's marks to per-case run counts. */
  addTo(runs: number[]): void {
    for (let i = 0; i < this.asked.length; i++) runs[i] += this.asked[i];
  }
}

/** Per case, no run yet. */
export function noDecisionRuns(): number[] {
  return new Array<number>(DECISION_CASES.length).fill(0);
}

const damaged = (stored: StoredFields | undefined): boolean => stored !== undefined && (stored.missing.length > 0 || stored.illTyped.length > 0);

/** A claim another engine, alive, holds (the case 'while a live engine holds the claim' of admit and requeue). */
const heldByLive = (claim: ClaimView): boolean => claim.kind === 'held' && !claim.mine && claim.ownerAlive;

function admitCases(view: AdmitView, marks: Uint8Array): void {
  const read = view.read;
  if (heldByLive(view.claim)) marks[ADMIT.claimLive] = 1;
  if (read.kind === 'absent') marks[ADMIT.absent] = 1;
  else if (read.kind === 'corrupt') marks[ADMIT.corrupt] = 1;
  else if (read.kind === 'unknown-version') marks[ADMIT.unknown] = 1;
  else {
    if (damaged(read.stored)) marks[ADMIT.damaged] = 1;
    if (read.metadataOnly === true) {
      marks[ADMIT.meta] = 1;
      return;
    }
    const c = statusCase(read.record.status, read.record.payload === view.body);
    if (c >= 0) marks[c] = 1;
  }
}

/** The case of a record of `status` offered its own body (`same`) or a new one, or -1 for a status of no case. */
function statusCase(status: Status, same: boolean): number {
  switch (status) {
    case 'READY':
      return same ? ADMIT.READY : ADMIT.READYnew;
    case 'QUEUED':
      return same ? ADMIT.QUEUED : ADMIT.QUEUEDnew;
    case 'DELIVERED':
      return same ? ADMIT.DELIVERED : ADMIT.DELIVEREDnew;
    case 'PARKED':
      return same ? ADMIT.PARKED : ADMIT.PARKEDnew;
    default:
      return -1;
  }
}

function claimCase(claim: ClaimView): number {
  if (claim.kind === 'free') return CLAIM.free;
  if (claim.kind === 'torn') return CLAIM.torn;
  // An engine asks only of a claim it does not hold in this pass: one of its own was its predecessor's, under stable identities (events/process.ts).
  if (claim.mine) return CLAIM.mine;
  if (claim.expired === true) return CLAIM.expired;
  return claim.ownerAlive ? CLAIM.live : CLAIM.dead;
}

function requeueCase(record: OutboxRecord, reset: boolean, view: RequeueView | undefined): number {
  if (view?.action === 'resubmit') return record.status === 'QUEUED' ? REQUEUE.resubmitQueued : REQUEUE.resubmit;
  return reset ? REQUEUE.reset : REQUEUE.plain;
}

function sweepCases(record: OutboxRecord, view: SweepView, marks: Uint8Array): void {
  if (damaged(view.stored)) marks[SWEEP.damaged] = 1;
  if (typeof record.payload !== 'string') marks[SWEEP.meta] = 1;
  else if (record.status === 'DELIVERED') marks[SWEEP.DELIVERED] = 1;
  else if (record.status === 'PARKED') marks[SWEEP.PARKED] = 1;
  else marks[SWEEP.pending] = 1;
}

function disposeCase(view: DisposeView): number {
  if (view.live !== null && view.live.generation !== view.file.generation && view.live.body === view.file.body) return DISPOSE.copy;
  if (view.live === null || view.live.generation !== view.file.generation) return DISPOSE.replaced;
  if (view.sent === null) return DISPOSE.noPost;
  return view.outcome === 'confirmed' ? DISPOSE.confirmed : DISPOSE.unconfirmed;
}

/** One wrapper per rule set and marks, so that the stepper built for it (one per rule set object) is built once. */
const wrapped = new WeakMap<RuleSet, WeakMap<DecisionMarks, RuleSet>>();

/**
 * `rules`, each decision marking its case in `marks` before it answers as
 * `rules` does. A decision the rule set leaves out (`selectable`, `fences`, `sweepable`)
 * stays out: the world reads its absence as the default.
 */
export function watchedRules(rules: RuleSet, marks: DecisionMarks): RuleSet {
  let byMarks = wrapped.get(rules);
  if (byMarks === undefined) wrapped.set(rules, (byMarks = new WeakMap()));
  const known = byMarks.get(marks);
  if (known !== undefined) return known;
  const m = marks.asked;
  const { selectable, fences, sweepable } = rules;
  const w: RuleSet = {
    ...rules,
    admit: (view) => {
      admitCases(view, m);
      return rules.admit(view);
    },
    mayClaim: (claim) => {
      m[claimCase(claim)] = 1;
      return rules.mayClaim(claim);
    },
    preSend: (record, view) => {
      m[damaged(view?.stored) ? PRESEND.damaged : PRESEND.intact] = 1;
      return rules.preSend(record, view);
    },
    complete: (record, outcome, limits, view) => {
      m[COMPLETE[outcome]] = 1;
      if (record.attempts + 1 >= limits.attemptsMax) m[COMPLETE.last] = 1;
      if (damaged(view?.stored)) m[COMPLETE.damaged] = 1;
      return rules.complete(record, outcome, limits, view);
    },
    requeue: (record, reset, view) => {
      m[requeueCase(record, reset, view)] = 1;
      if (view !== undefined && heldByLive(view.claim)) m[REQUEUE.claimLive] = 1;
      if (damaged(view?.stored)) m[REQUEUE.damaged] = 1;
      return rules.requeue(record, reset, view);
    },
    dispose: (view) => {
      m[disposeCase(view)] = 1;
      return rules.dispose(view);
    },
    ...(selectable === undefined
      ? {}
      : {
          selectable: sameSelectionKind(rules, (record, view) => {
            const yes = selectable.call(rules, record, view);
            m[yes ? SELECT.yes : SELECT.no] = 1;
            return yes;
          }),
        }),
    ...(fences === undefined
      ? {}
      : {
          fences: (write) => {
            m[FENCES[write]] = 1;
            return fences.call(rules, write);
          },
        }),
    ...(sweepable === undefined
      ? {}
      : {
          sweepable: (record, view) => {
            sweepCases(record, view, m);
            return sweepable.call(rules, record, view);
          },
        }),
  };
  byMarks.set(marks, w);
  return w;
}
