/**
 * fail-closed whose operator's "send again" (a resubmit of a pending record)
 * clears a leftover in-flight mark when no engine holds the id's claim, as
 * a team does whose claims are row locks (`SELECT ... FOR UPDATE SKIP
 * LOCKED`): "nobody holds the lock, so nothing is being sent; the mark
 * would only make the resend park outcome-unknown" (a blind review's).
 *
 * Mistake: a row lock goes with its holder's connection, so "no lock" is
 * exactly what a crash in the POST leaves, after the broker stored the
 * body. The mark that said so is wiped; the resend is taken for a first
 * send, a broker that answers a duplicate with 409 refuses it, and the
 * record parks `permanent-refusal` over a body the broker holds
 * (honest-park). Where a dead engine's claim stays held it is never free
 * after a crash and the rule never fires: only a world whose claims are
 * released with their holder shows it (`--session-claims 1`; docs/faults.md,
 * 'The swarm').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const resubmitClearsUnlocked: RuleSet = extendRules(failClosed, {
  name: 'resubmit-clears-unlocked',
  summary: 'fail-closed, but a resubmit clears the in-flight mark when no engine holds the claim.',
  requeue: (record, reset, view) => {
    const written = failClosed.requeue(record, reset, view);
    if (written === record || view?.action !== 'resubmit' || view.claim.kind !== 'free') return written;
    return { ...written, inFlight: false };
  },
});

export default resubmitClearsUnlocked;
