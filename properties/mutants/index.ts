/**
 * Mutants of `fail-closed`: each one small, plausible rule mistake, one per
 * file (each file's default export is a rule set, so
 * `outbox-sim check --rules properties/mutants/<file>.ts` checks it alone).
 *
 * {@link MUTANTS} are the mutants `check` must kill within its default
 * budget; `mutants.test.ts` asserts it and prints the kill rate.
 * {@link SURVIVORS} (their files in `equivalent/`, so that a listing of
 * this folder is the mutants) are candidate mistakes that the default check does not
 * catch, each with the reason: either equivalent to fail-closed under the
 * properties of docs/properties.md, or genuinely wrong but needing a property or a fault
 * the checker does not have yet. The test pins them as survivors, so the
 * day a stronger property kills one, the test says so and the entry moves.
 */
import type { RuleSet } from '../../model/rules.ts';
import admitAfterOutcomeUnknown from './admit-after-outcome-unknown.ts';
import admitAfterMaxAttempts from './admit-after-max-attempts.ts';
import admitAfterFirstRefusal from './admit-after-first-refusal.ts';
import admitDeliveredNewBody from './admit-delivered-new-body.ts';
import admitSupersedesReady from './admit-supersedes-ready.ts';
import corruptAsAbsent from './corrupt-as-absent.ts';
import unknownSchemaAsAbsent from './unknown-schema-as-absent.ts';
import legacyRebuilt from './legacy-rebuilt.ts';
import reclaimTornClaim from './reclaim-torn-claim.ts';
import stealLiveClaim from './steal-live-claim.ts';
import neverReclaimDead from './never-reclaim-dead.ts';
import ownClaimRefused from './own-claim-refused.ts';
import conflictAsConfirmed from './conflict-as-confirmed.ts';
import attemptLog from './attempt-log.ts';
import envelopeIdIsKey from './envelope-id-is-key.ts';
import keyPerAttempt from './key-per-attempt.ts';
import keyWithoutId from './key-without-id.ts';
import archiveLiveGeneration from './archive-live-generation.ts';
import archiveById from './archive-by-id.ts';
import archiveParked from './archive-parked.ts';
import archiveWhenSent from './archive-when-sent.ts';
import unclassifiedNotCounted from './unclassified-not-counted.ts';
import neverQuarantine from './never-quarantine.ts';
import parkHistory from './park-history.ts';
import garbledAsConfirmed from './garbled-as-confirmed.ts';
import okFalseAsConfirmed from './ok-false-as-confirmed.ts';
import timeoutAsDefinite from './timeout-as-definite.ts';
import requeueKeepsEpoch from './equivalent/requeue-keeps-epoch.ts';
import conflictAsIndeterminate from './equivalent/conflict-as-indeterminate.ts';
import conflictAsTransient from './equivalent/conflict-as-transient.ts';
import unavailableAsDefinite from './equivalent/unavailable-as-definite.ts';
import okFalseAsTransient from './equivalent/ok-false-as-transient.ts';
import timeoutParksAtOnce from './equivalent/timeout-parks-at-once.ts';
import refusalRetriedOnce from './equivalent/refusal-retried-once.ts';
import statusWrittenLast from './status-written-last.ts';
import abandonAtCap from './abandon-at-cap.ts';
import retryPastCap from './retry-past-cap.ts';
import refusalAfterUnknown from './refusal-after-unknown.ts';
import rebuildParkedSameBody from './rebuild-parked-same-body.ts';
import retentionDeletesRecord from './retention-deletes-record.ts';
import historyOverCap from './history-over-cap.ts';
import flagsUnvalidated from './flags-unvalidated.ts';
import unfencedLease from './unfenced-lease.ts';
import requeueClearsEvidence from './requeue-clears-evidence.ts';
import capParksMaxAttempts from './cap-parks-max-attempts.ts';
import noPreSendWrite from './no-pre-send-write.ts';
import timeoutAsTransient from './timeout-as-transient.ts';

/** A mutant and the property its mistake is meant to break. */
export interface Mutant {
  rules: RuleSet;
  /** The property that must be among those `check` finds violated. */
  breaks: string;
  /**
   * A broker answer switched off in this entry's worlds (its weight 0 in every
   * seed), for a mistake that only a newer fault catches in a world otherwise
   * kind to it.
   */
  withoutAnswer?: string;
}

/** Mutants `check` must kill within its default budget, by the decision they change. */
export const MUTANTS: readonly Mutant[] = [
  // admit
  { rules: admitAfterOutcomeUnknown, breaks: 'no-phantom-delivery' },
  // The phantom (a crash after the broker received A leaves it stored and
  // uncounted) exists but first shows at seed 5796; in budget the mutant is
  // caught by the loss of a parked body whose file had been replaced.
  { rules: admitAfterMaxAttempts, breaks: 'no-silent-loss' },
  // Its phantom (a refusal after an uncounted POST that stored the body) is
  // closed since fail-closed parks that refusal outcome-unknown (honest-park);
  // what remains is the parked body overwritten by the admitted one.
  { rules: admitAfterFirstRefusal, breaks: 'no-silent-loss' },
  { rules: admitDeliveredNewBody, breaks: 'no-phantom-delivery' },
  { rules: admitSupersedesReady, breaks: 'no-phantom-delivery' },
  { rules: corruptAsAbsent, breaks: 'no-phantom-delivery' },
  { rules: unknownSchemaAsAbsent, breaks: 'no-phantom-delivery' },
  { rules: legacyRebuilt, breaks: 'no-phantom-delivery' },
  // The parked body sent again from a rebuilt READY record: caught only per body.
  { rules: rebuildParkedSameBody, breaks: 'parked-stays-parked' },
  // mayClaim
  { rules: reclaimTornClaim, breaks: 'exclusive-attempt' },
  { rules: stealLiveClaim, breaks: 'exclusive-attempt' },
  { rules: neverReclaimDead, breaks: 'no-silent-loss' },
  // Only the seeds that draw stable identities restart an engine under the pid of its claim's holder.
  { rules: ownClaimRefused, breaks: 'settled-after-healing' },
  // mayClaim + fences: only a world with leases (the seeds that draw a clock) takes a live holder's
  // claim; unfenced, the stale holder parks the body the new holder then POSTs. (It also breaks
  // exclusive-attempt, as a fenced lease does when the stall falls after the POST.)
  { rules: unfencedLease, breaks: 'parked-stays-parked' },
  // classify
  { rules: conflictAsConfirmed, breaks: 'no-phantom-delivery' },
  // A garbled reply may be a cut-short failure that stored nothing (garbled-unsent).
  { rules: garbledAsConfirmed, breaks: 'no-phantom-delivery' },
  // A 200 that says ok:false: the broker declined, nothing stored (refuse-ok-false).
  { rules: okFalseAsConfirmed, breaks: 'no-phantom-delivery' },
  // A timed-out POST that stored the body, retried like a 503: at the cap it parks max-attempts, "not delivered".
  { rules: timeoutAsTransient, breaks: 'honest-park' },
  // preSend
  // No mark of a POST about to be made: a crash during it leaves none, and a 409 of the resend parks as a refusal.
  { rules: noPreSendWrite, breaks: 'honest-park' },
  // complete
  // A retry refused 409 by an id-409 broker that stored the lost first attempt.
  { rules: refusalAfterUnknown, breaks: 'honest-park' },
  // Were survivors (equivalent) until honest-park: a park reason is now checked.
  // A timeout parked as a refusal while the timed-out POST stored the body.
  { rules: timeoutAsDefinite, breaks: 'honest-park' },
  // A crash between the two writes clears in-flight with the outcome unwritten:
  // the next refusal parks permanent-refusal over the stored body.
  { rules: statusWrittenLast, breaks: 'honest-park' },
  { rules: attemptLog, breaks: 'bounded-record' },
  { rules: parkHistory, breaks: 'bounded-record' },
  // A history within 256 bytes but over the cap its rule set states (recordSchema maxEntries).
  { rules: historyOverCap, breaks: 'bounded-record' },
  // Evidence flags trusted as read with defaults: lost to field-corrupt or legacy-record, a refusal parks over a stored body.
  { rules: flagsUnvalidated, breaks: 'honest-park' },
  // The cap's park says max-attempts after a lost reply or a cut POST that stored the body.
  { rules: capParksMaxAttempts, breaks: 'honest-park' },
  // A garbled reply left uncounted retries forever against a broker that keeps garbling
  // after faults stop: the system never becomes quiet.
  { rules: unclassifiedNotCounted, breaks: 'quiet-after-healing' },
  // A file whose body parked at the attempts limit left live: nothing retries it, nothing tells the operator.
  { rules: abandonAtCap, breaks: 'settled-after-healing' },
  // Retrying past the cap against a broker that keeps failing after faults stop: never quiet.
  { rules: retryPastCap, breaks: 'quiet-after-healing' },
  // requeue
  // The mark of a POST cut by a crash cleared by a resubmit: a 409 of the resend parks as a refusal.
  { rules: requeueClearsEvidence, breaks: 'honest-park' },
  // envelope
  { rules: envelopeIdIsKey, breaks: 'no-phantom-delivery' },
  { rules: keyPerAttempt, breaks: 'retries-deduped' },
  { rules: keyWithoutId, breaks: 'no-phantom-delivery' },
  // retention (not a decision: what the sweeper leaves of a DELIVERED record).
  // Without a tombstone a later body for the swept id is sent as new; the id-ok
  // broker answers success for it and keeps the first: caught only where the sweeper runs.
  { rules: retentionDeletesRecord, breaks: 'no-phantom-delivery' },
  // late landing: without lost-reply a timeout never stores when answered, and a
  // timeout taken for a refusal is right; a timed-out POST that lands after the park is caught only
  // by late landing (late-landing.test.ts: none without it, same seeds).
  { rules: timeoutAsDefinite, breaks: 'honest-park', withoutAnswer: 'lost-reply' },
  // dispose
  { rules: archiveLiveGeneration, breaks: 'no-phantom-delivery' },
  { rules: archiveById, breaks: 'no-phantom-delivery' },
  { rules: archiveParked, breaks: 'no-phantom-delivery' },
  { rules: archiveWhenSent, breaks: 'no-phantom-delivery' },
  // A file left live with no named cause is not an end state once quiet.
  { rules: neverQuarantine, breaks: 'settled-after-healing' },
];

/** A candidate mistake the default check does not catch, and why. */
export interface Survivor {
  rules: RuleSet;
  /**
   * `equivalent`: no world in the fault menu tells it apart from fail-closed
   * under docs/properties.md. `uncaught`: genuinely wrong; `why` names the
   * property or fault that would catch it.
   */
  verdict: 'equivalent' | 'uncaught';
  why: string;
}

/** Candidate mutants that survive the default budget, with the analysis. */
export const SURVIVORS: readonly Survivor[] = [
  {
    rules: requeueKeepsEpoch,
    verdict: 'equivalent',
    why:
      'the epoch only changes the idempotency key; fail-closed resends the same body for an id, so every dedupe mode leaves ' +
      'the broker holding that body whether the key is new or reused',
  },
  // Classifications and completions a team might choose that differ from fail-closed's yet claim nothing false:
  // each parks sooner, later or as outcome-unknown, never a non-delivery the broker contradicts. They pin the
  // other side of the check: a property tightened past the domain would report them (a false alarm).
  {
    rules: conflictAsIndeterminate,
    verdict: 'equivalent',
    why: 'a 409 retried as a timeout sets unknownSeen, so the cap parks outcome-unknown, which claims nothing about the broker',
  },
  {
    rules: conflictAsTransient,
    verdict: 'equivalent',
    why:
      'a 409 stores nothing, so a retry is safe; the broker holds a copy only through a POST the record already marks as ' +
      'unknown (a crash in it, a lost, late or garbled reply), so the cap parks max-attempts only where nothing can be stored',
  },
  {
    rules: unavailableAsDefinite,
    verdict: 'equivalent',
    why: 'a 503 stores nothing, so parking on it is a true non-delivery of that POST; after an unknown outcome the park says outcome-unknown',
  },
  {
    rules: okFalseAsTransient,
    verdict: 'equivalent',
    why: 'the broker declined the POST and stored nothing, so a retry is safe and the cap parks max-attempts only when no outcome was unknown',
  },
  {
    rules: timeoutParksAtOnce,
    verdict: 'equivalent',
    why: 'outcome-unknown claims nothing about the broker, so parking at the first timeout is honest whether or not the POST was stored',
  },
  {
    rules: refusalRetriedOnce,
    verdict: 'equivalent',
    why: 'a refusal stores nothing, so its retry is an ordinary attempt; a later refusal parks permanent-refusal only if no outcome was unknown',
  },
];
