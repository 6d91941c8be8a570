/**
 * Rebuilt states must be the states the system went through: the renderers
 * show them, so a wrong initial world or a misapplied change would show a
 * world that never existed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCycle } from '../../model/catalog/index.ts';
import { canonicalJson } from '../../sim/core/canonical.ts';
import { outboxSystem } from '../../sim/outbox/outbox-system.ts';
import type { WorldOptions } from '../../sim/outbox/options.ts';
import type { World, WorldEvent } from '../../sim/outbox/world.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { initialWorldOf } from './initial.ts';
import { statesOf } from './states.ts';
import { freshCycleSamples, removeDir, tempDir } from './test-traces.ts';

const dir = tempDir('render-states-');
let traces: Trace[] = [];
beforeAll(async () => {
  traces = [...(await freshCycleSamples(dir)).values()].map((s) => s.trace);
});
afterAll(() => removeDir(dir));

describe('statesOf', () => {
  it('rebuilds every state the system steps through, from the initial world on', () => {
    expect(traces.length).toBeGreaterThanOrEqual(2);
    for (const trace of traces) {
      const system = outboxSystem(trace.header.options as WorldOptions, { rules: freshCycle });
      const states = statesOf(trace);
      expect(states).toHaveLength(trace.steps.length + 1);
      let world: World = system.initial();
      expect(canonicalJson(states[0])).toBe(canonicalJson(world));
      trace.steps.forEach((step, i) => {
        world = step.event === null ? (system.heal?.(world) ?? world) : system.step(world, step.event as WorldEvent).state;
        expect(canonicalJson(states[i + 1]), `trace ${trace.id} step ${step.n}`).toBe(canonicalJson(world));
      });
    }
  });

  it('starts with the engines, the empty store and the counters in place', () => {
    // The world before step 1 (the first step may crash the only engine).
    const first = statesOf(traces[0])[0];
    expect(Array.isArray(first.engines)).toBe(true);
    expect((first.engines as unknown[]).length).toBeGreaterThan(0);
    expect(first).toHaveProperty('records');
    expect(first).toHaveProperty('broker');
    expect(first).toHaveProperty('archived');
  });
});

describe('initialWorldOf', () => {
  it('is empty for a system it does not know', () => {
    expect(initialWorldOf({ ...traces[0].header, model: 'receipts' })).toEqual({});
  });

  it('starts every other engine on the old rules when the trace ran two rule sets', () => {
    const options = { ...(traces[0].header.options as WorldOptions), engines: 2, skew: true };
    const world = initialWorldOf({ ...traces[0].header, options, oldRules: { name: 'fail-closed', source: 'catalog', hash: null } });
    expect((world.engines as { version: string }[]).map((e) => e.version)).toEqual(['old', 'new']);
  });
});
