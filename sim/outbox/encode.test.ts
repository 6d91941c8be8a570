/**
 * The object world's key (`encode.ts`) is equal for two worlds exactly when
 * their canonical JSON is: the object explorer stores one state per key, so
 * a key that leaves a field out merges states that differ in it. It left out
 * the broker's log (`--broker log`) and the rekeyed note (retries-deduped),
 * and the object explorer found 19,823 states in a default world under
 * `--broker log` where the packed explorer found 26,465 (20,717 since fail-closed counts an unfinished send as an attempt).
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import type { BrokerMode } from '../../model/types.ts';
import type { RuleSet } from '../../model/rules.ts';
import keyPerAttempt from '../../properties/mutants/key-per-attempt.ts';
import { steppersFor } from '../check.ts';
import { canonicalJson } from '../core/canonical.ts';
import { explore } from '../core/explore.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from './explore-options.ts';
import { exploreOutbox } from './explore-outbox.ts';
import { outboxSystem } from './outbox-system.ts';
import type { World } from './world.ts';

/** Every world met breadth first, to a bound. */
function worldsOf(rules: RuleSet, broker: BrokerMode, max: number): World[] {
  const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, broker }), { rules }, steppersFor(rules, null));
  const seen = new Set<string>();
  const out: World[] = [];
  const queue = [system.initial()];
  while (queue.length > 0 && out.length < max) {
    const w = queue.shift() as World;
    const json = canonicalJson(w);
    if (seen.has(json)) continue;
    seen.add(json);
    out.push(w);
    for (const g of system.choices(w)) for (const e of g.events) queue.push(system.step(w, e).state);
  }
  return out;
}

describe('the object world key', () => {
  it.each([
    ['fail-closed', 'log', failClosed],
    ['fail-closed', 'key', failClosed],
    ['key-per-attempt (rekeyed holdings)', 'key', keyPerAttempt],
  ] as [string, BrokerMode, RuleSet][])('%s, broker %s: equal keys exactly for equal worlds', (_name, broker, rules) => {
    const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, broker }), { rules }, steppersFor(rules, null));
    const byKey = new Map<string, string>();
    let logs = 0;
    let rekeyed = 0;
    for (const w of worldsOf(rules, broker, 4_000)) {
      const json = canonicalJson(w);
      const key = system.key(w);
      const known = byKey.get(key);
      if (known !== undefined) expect(json).toBe(known);
      byKey.set(key, json);
      for (const h of Object.values(w.broker)) {
        if ((h.log?.length ?? 0) > 1) logs++;
        if (h.rekeyed === true) rekeyed++;
      }
    }
    // The walk met what the key once left out.
    if (broker === 'log') expect(logs).toBeGreaterThan(0);
    if (rules === keyPerAttempt) expect(rekeyed).toBeGreaterThan(0);
  });

  it('under --broker log the object explorer stores the states the packed explorer does', () => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, broker: 'log' });
    const objects = explore(outboxSystem(options, { rules: failClosed }, steppersFor(failClosed, null)), { statesMax: 100_000 });
    const packed = exploreOutbox(options, { rules: failClosed }, steppersFor(failClosed, null), { statesMax: 100_000, symmetry: false });
    expect(packed.explorer).toBe('packed');
    expect([objects.states, objects.transitions]).toEqual([packed.states, packed.transitions]);
    expect(objects.states).toBe(20717);
  });
});
