/**
 * Item "time", fencing off (docs/rules.md, 'Time'): `lease-fenced`, but no
 * write checks the claim token (`fences` answers false), as a relay that
 * trusts its lease and writes `UPDATE ... WHERE id = ?` does.
 *
 * Mistake: a holder that stalls past its lease resumes unaware; the engine
 * that took its claim over attempts the same id, and both POST: two attempts
 * in flight for one id (exclusive-attempt), and under `--broker log` the
 * body delivered twice (at-most-once), the bug class of two relays sending
 * at once.
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import leaseFenced from './lease-fenced.ts';

const leaseUnfenced: RuleSet = extendRules(leaseFenced, {
  name: 'lease-unfenced',
  summary: 'lease-fenced, but no write or POST checks the claim token first: a stale holder keeps acting.',
  fences: () => false,
});

export default leaseUnfenced;
