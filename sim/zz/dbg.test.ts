import { it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { BOUNDS_DEFAULT, fixedOptions, planThresholds } from '../check.ts';
it('dbg', () => {
  const plan = { rules: failClosed, oldRules: null, seedStart: 1, seeds: 0, broker: null, bounds: BOUNDS_DEFAULT };
  const t = planThresholds(plan, fixedOptions(plan));
  for (const s of (t as unknown as { seen: { threshold: unknown; sources: { call: { decision: string; record: unknown; limits?: unknown; view?: unknown }; outcome: unknown }[] }[] }).seen) {
    console.log(JSON.stringify(s.threshold));
    for (const src of s.sources) console.log('  ', src.call.decision, String(src.outcome), JSON.stringify(src.call.record), JSON.stringify(src.call.limits), JSON.stringify(src.call.view).slice(0, 300));
  }
}, 60000);
