/**
 * Partial-order reduction on toy systems (`por.ts`): independent processes
 * are searched in one order only, a violation stays found, and the cycle
 * proviso keeps an event from being ignored forever along a cycle of
 * reduced states.
 */
import { describe, expect, it } from 'vitest';
import { explorePacked, type PackedSystem } from './explore-packed.ts';
import { withPartialOrder, type AmpleChooser } from './por.ts';

/** Slot i < n: process i's counter, which it steps by one modulo `mod` (up to `mod - 1` if not `cyclic`); slot n: a flag the last event sets. */
function toy(n: number, mod: number, cyclic: boolean): PackedSystem<number> {
  const events = (s: Int32Array): number[] => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (cyclic || s[i] < mod - 1) out.push(i);
    if (s[n] === 0) out.push(n);
    return out;
  };
  const apply = (s: Int32Array, e: number, out: Int32Array): void => {
    out.set(s);
    if (e === n) out[n] = 1;
    else out[e] = (s[e] + 1) % mod;
  };
  return {
    width: n + 1,
    initial: (out) => out.fill(0),
    events,
    apply,
    expand(s, sink) {
      const es = events(s);
      for (let i = 0; i < es.length; i++) {
        apply(s, es[i], sink.out);
        if (sink.take(i)) return;
      }
    },
    always: ['flag-never-set'],
    check: (s) => (s[n] === 1 ? { property: 'flag-never-set', subject: '', body: '', layer: '', detail: 'the flag is set' } : null),
  };
}

/** The first counter's event alone: persistent (every process writes only its own slot) and invisible (the property reads the flag). */
const firstCounter = (acyclic: boolean): AmpleChooser<number> => ({
  ample: (_s, events) => (events.length > 1 && events[0] === 0 ? { events: [0], acyclic } : null),
});

describe('por: toy systems', () => {
  it('independent counters: one order searched, far fewer states, the violation still found, its path real', () => {
    const whole = explorePacked(toy(3, 4, false), { statesMax: 10_000, stopAtFirst: false });
    const oneCounter: AmpleChooser<number> = { ample: (_s, events) => (events.length > 1 && events[0] < 3 ? { events: [0], acyclic: false } : null) };
    const system = withPartialOrder(toy(3, 4, false), oneCounter);
    const reduced = explorePacked(system, { statesMax: 10_000, stopAtFirst: false });
    // 4 * 4 * 4 * 2 states in all.
    expect(whole.states).toBe(128);
    expect(reduced.states).toBeLessThan(40);
    expect(reduced.violations.map((v) => v.violation.property)).toEqual(['flag-never-set']);
    expect(system.stats.reduced).toBeGreaterThan(0);
    // The path reaches a state with the flag set.
    const s = new Int32Array(4);
    const t = new Int32Array(4);
    for (const e of reduced.violations[0].events) {
      system.apply(s, e, t);
      s.set(t);
    }
    expect(s[3]).toBe(1);
  });

  it('a cycle of reduced states: the proviso expands fully where an ample successor is stored, so the flag is still set', () => {
    // Counter 0 cycles 0, 1, 2, 0: always ample, it would ignore the flag's event forever.
    const system = withPartialOrder(toy(1, 3, true), firstCounter(false));
    const r = explorePacked(system, { statesMax: 1000, stopAtFirst: false });
    expect(r.violations.map((v) => v.violation.property)).toEqual(['flag-never-set']);
    expect(system.stats.proviso).toBeGreaterThan(0);
    // Without it (a chooser wrongly claiming its set lies on no cycle), the violation is missed: the proviso is what finds it.
    const ignoring = explorePacked(withPartialOrder(toy(1, 3, true), firstCounter(true)), { statesMax: 1000, stopAtFirst: false });
    expect(ignoring.violations).toEqual([]);
  });
});
