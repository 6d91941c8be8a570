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
import type { AdmitView, DisposeView, RequeueView, RuleSet } from '../../model/rules.ts';
import type { ClaimView, Outcome, Status, StoredFields } from '../../model/types.ts';

/** One case of one decision's input. */
export interface DecisionCase {
  decision: string;
  /** The case, in the words of the report. */
  name: string;
}

const cases: DecisionCase[] = [];
const at = (decision: string, name: string): number => cases.push({ decision, name }) - 1;

// `admit` (publish): how the id's record read, and whether the record holds the body on offer.
const ADMIT_ABSENT = at('admit', 'no record');
const ADMIT_CORRUPT = at('admit', 'corrupt record');
const ADMIT_UNKNOWN = at('admit', 'record of an unknown schema');
const ADMIT_META = at('admit', 'record without payload (retained)');
// Per status, the case of the same body, then (one more) of a new body.
const ADMIT_READY = at('admit', 'READY, same body');
at('admit', 'READY, new body');
const ADMIT_QUEUED = at('admit', 'QUEUED, same body');
at('admit', 'QUEUED, new body');
const ADMIT_DELIVERED = at('admit', 'DELIVERED, same body');
at('admit', 'DELIVERED, new body');
const ADMIT_PARKED = at('admit', 'PARKED, same body');
at('admit', 'PARKED, new body');
const ADMIT_DAMAGED = at('admit', 'record with a damaged field');
const ADMIT_CLAIM_LIVE = at('admit', 'while a live engine holds the claim');

// `mayClaim`: the claim the engine meets.
const CLAIM_FREE = at('mayClaim', 'free');
const CLAIM_LIVE = at('mayClaim', 'held by a live engine');
const CLAIM_DEAD = at('mayClaim', 'held by a dead engine');
const CLAIM_EXPIRED = at('mayClaim', 'held, lease expired');
const CLAIM_TORN = at('mayClaim', 'torn');

// `selectable` (a rule set that declares it): its answers.
const SELECT_YES = at('selectable', 'selected');
const SELECT_NO = at('selectable', 'passed over');

// `preSend`: the record it is given.
const PRESEND_INTACT = at('preSend', 'intact record');
const PRESEND_DAMAGED = at('preSend', 'record with a damaged field');

// `complete`: the attempt's outcome, and the record it is given.
const COMPLETE_OUTCOME: Readonly<Record<Outcome, number>> = {
  confirmed: at('complete', 'confirmed'),
  definite: at('complete', 'definite refusal'),
  transient: at('complete', 'transient'),
  indeterminate: at('complete', 'indeterminate'),
  unclassified: at('complete', 'unclassified'),
};
const COMPLETE_LAST = at('complete', 'at the attempts limit');
const COMPLETE_DAMAGED = at('complete', 'record with a damaged field');

// `requeue`: the operator's action.
const REQUEUE = at('requeue', 'requeue');
const REQUEUE_RESET = at('requeue', 'requeue, attempts reset');
const RESUBMIT = at('requeue', 'resubmit (READY)');
const REQUEUE_DAMAGED = at('requeue', 'record with a damaged field');

// `dispose`: what the pass did, and whether the file it read is still the live one.
const DISPOSE_CONFIRMED = at('dispose', 'POST confirmed');
const DISPOSE_UNCONFIRMED = at('dispose', 'POST not confirmed');
const DISPOSE_NO_POST = at('dispose', 'no POST this pass');
const DISPOSE_REPLACED = at('dispose', 'file replaced or gone');

// `fences` (a rule set that declares it): the write at which the engine found its claim gone.
const FENCES: Readonly<Record<string, number>> = {
  'pre-send': at('fences', 'pre-send'),
  post: at('fences', 'post'),
  complete: at('fences', 'complete'),
  release: at('fences', 'release'),
};

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

function admitCases(view: AdmitView, marks: Uint8Array): void {
  const read = view.read;
  if (view.claim.kind === 'held' && !view.claim.mine && view.claim.ownerAlive) marks[ADMIT_CLAIM_LIVE] = 1;
  if (read.kind === 'absent') marks[ADMIT_ABSENT] = 1;
  else if (read.kind === 'corrupt') marks[ADMIT_CORRUPT] = 1;
  else if (read.kind === 'unknown-version') marks[ADMIT_UNKNOWN] = 1;
  else {
    if (damaged(read.stored)) marks[ADMIT_DAMAGED] = 1;
    if (read.metadataOnly === true) {
      marks[ADMIT_META] = 1;
      return;
    }
    const same = statusCase(read.record.status);
    if (same >= 0) marks[read.record.payload === view.body ? same : same + 1] = 1;
  }
}

/** The case of a record of `status` offered its own body (the next case: a new body), or -1 for a status of no case. */
function statusCase(status: Status): number {
  switch (status) {
    case 'READY':
      return ADMIT_READY;
    case 'QUEUED':
      return ADMIT_QUEUED;
    case 'DELIVERED':
      return ADMIT_DELIVERED;
    case 'PARKED':
      return ADMIT_PARKED;
    default:
      return -1;
  }
}

function claimCase(claim: ClaimView): number {
  if (claim.kind === 'free') return CLAIM_FREE;
  if (claim.kind === 'torn') return CLAIM_TORN;
  // An engine asks only of a claim it does not hold (`mine` is never met): a held one is another's.
  if (claim.expired === true) return CLAIM_EXPIRED;
  return claim.ownerAlive ? CLAIM_LIVE : CLAIM_DEAD;
}

function requeueCase(reset: boolean, view: RequeueView | undefined): number {
  if (view?.action === 'resubmit') return RESUBMIT;
  return reset ? REQUEUE_RESET : REQUEUE;
}

function disposeCase(view: DisposeView): number {
  if (view.live === null || view.live.generation !== view.file.generation) return DISPOSE_REPLACED;
  if (view.sent === null) return DISPOSE_NO_POST;
  return view.outcome === 'confirmed' ? DISPOSE_CONFIRMED : DISPOSE_UNCONFIRMED;
}

/** One wrapper per rule set and marks, so that the stepper built for it (one per rule set object) is built once. */
const wrapped = new WeakMap<RuleSet, WeakMap<DecisionMarks, RuleSet>>();

/**
 * `rules`, each decision marking its case in `marks` before it answers as
 * `rules` does. A decision the rule set leaves out (`selectable`, `fences`)
 * stays out: the world reads its absence as the default.
 */
export function watchedRules(rules: RuleSet, marks: DecisionMarks): RuleSet {
  let byMarks = wrapped.get(rules);
  if (byMarks === undefined) wrapped.set(rules, (byMarks = new WeakMap()));
  const known = byMarks.get(marks);
  if (known !== undefined) return known;
  const m = marks.asked;
  const { selectable, fences } = rules;
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
      m[damaged(view?.stored) ? PRESEND_DAMAGED : PRESEND_INTACT] = 1;
      return rules.preSend(record, view);
    },
    complete: (record, outcome, limits, view) => {
      m[COMPLETE_OUTCOME[outcome]] = 1;
      if (record.attempts + 1 >= limits.attemptsMax) m[COMPLETE_LAST] = 1;
      if (damaged(view?.stored)) m[COMPLETE_DAMAGED] = 1;
      return rules.complete(record, outcome, limits, view);
    },
    requeue: (record, reset, view) => {
      m[requeueCase(reset, view)] = 1;
      if (damaged(view?.stored)) m[REQUEUE_DAMAGED] = 1;
      return rules.requeue(record, reset, view);
    },
    dispose: (view) => {
      m[disposeCase(view)] = 1;
      return rules.dispose(view);
    },
    ...(selectable === undefined
      ? {}
      : {
          selectable: (record, view) => {
            const yes = selectable.call(rules, record, view);
            m[yes ? SELECT_YES : SELECT_NO] = 1;
            return yes;
          },
        }),
    ...(fences === undefined
      ? {}
      : {
          fences: (write) => {
            const c = FENCES[write];
            if (c !== undefined) m[c] = 1;
            return fences.call(rules, write);
          },
        }),
  };
  byMarks.set(marks, w);
  return w;
}
