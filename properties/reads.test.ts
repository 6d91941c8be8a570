/**
 * Each property that declares the fields it reads (the packed explorer
 * memoises its verdicts on them) reads nothing else: checked on every state
 * of searches with the whole fault menu, through a proxy that records which
 * fields `check` touched.
 */
import { describe, expect, it } from 'vitest';
import { failClosed, freshCycle } from '../model/catalog/index.ts';
import { steppersFor } from '../sim/check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../sim/outbox/explore-options.ts';
import { outboxSystem } from '../sim/outbox/outbox-system.ts';
import type { World } from '../sim/outbox/world.ts';
import { outboxProperties } from '../sim/outbox/properties.ts';

function statesOf(rules: typeof failClosed, sizes: Partial<typeof EXPLORE_DEFAULTS>, limit: number): World[] {
  const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, ...sizes }), { rules }, steppersFor(rules, null));
  const out: World[] = [system.initial()];
  const seen = new Set([system.key(out[0])]);
  for (let i = 0; i < out.length && out.length < limit; i++) {
    for (const e of system.choices(out[i]).flatMap((g) => g.events)) {
      const t = system.step(out[i], e).state;
      const k = system.key(t);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(t);
      }
    }
  }
  return out;
}

describe('declared property reads', () => {
  const properties = outboxProperties();
  const declared = properties.filter((p) => p.reads !== undefined);
  const states = [
    ...statesOf(failClosed, { engines: 2, corruptionsMax: 1, operatorActionsMax: 1 }, 4000),
    ...statesOf(freshCycle, { engines: 2, ids: 2, bodiesPerId: 1 }, 4000),
  ];

  it('every always-property declares its reads', () => {
    expect(properties.filter((p) => p.kind === 'always' && p.reads === undefined).map((p) => p.name)).toEqual([]);
  });

  it.each(declared.map((p) => [p.name, p] as const))('%s reads only what it declares', (_name, p) => {
    const touched = new Set<string>();
    let violations = 0;
    for (const w of states) {
      const spy = new Proxy(w, {
        get(target, key, receiver) {
          if (typeof key === 'string') touched.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      if (p.check(spy) !== null) violations++;
    }
    expect([...touched].filter((k) => !(p.reads as readonly string[]).includes(k))).toEqual([]);
    expect(touched.size).toBeGreaterThan(0);
    expect(violations).toBeLessThan(states.length);
  });
});
