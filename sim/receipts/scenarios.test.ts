import { describe, expect, it } from 'vitest';
import { explore } from '../core/explore.ts';
import { FIRST_COMMAND, receiptsSystem } from './receipts-system.ts';
import { NO_FAULTS, SCENARIO_OPTIONS } from './options.ts';
import { runScenarios, SCENARIOS } from './scenarios.ts';
import { startRun } from './script.ts';
import { damage, handleAll, play } from './steps.ts';

describe('dispatch scenarios (real dispatcher, after one successful first execution)', () => {
  const rows = runScenarios();

  it('runs I0..I7 in the order docs/receipts.md lists them, with cumulative starts and attempts', () => {
    expect(rows.map((r) => [r.id, r.name, r.starts, r.attempts])).toEqual([
      ['I0', 'intact receipts', 1, 1],
      ['I1', 'completion damaged', 1, 1],
      ['I2', 'both damaged', 1, 1],
      ['I3', 'both damaged and a new process reads the disk', 1, 1],
      ['I4', 'both damaged, the original session cancelled, retried with the same key', 1, 1],
      ['I5', 'both damaged with the revision changed', 1, 1],
      ['I6', 'both damaged with eight kernels calling one dispatcher at once', 1, 1],
      ['I7', 'cancel, then a new command key', 2, 2],
    ]);
    expect(SCENARIOS).toHaveLength(8);
  });

  it('names the layer that decided each one', () => {
    const decidedBy = rows.map((r) => {
      const l = r.layers;
      if (l.decisions.replay > 0 && l.callbacks === 1) return 'kernel replay';
      if (l.decisions.stale > 0) return 'kernel stale revision';
      return Object.keys(l.refusals).join(',') || (l.attempts > 1 ? 'new attempt for new key' : '?');
    });
    expect(decidedBy).toEqual([
      'kernel replay',
      'session-running',
      'session-running',
      'session-running',
      'terminal-attempt',
      'kernel stale revision',
      'session-running',
      'new attempt for new key',
    ]);
    for (const r of rows) expect(r.mechanism.length).toBeGreaterThan(0);
    expect(rows[4].mechanism).toContain('key k1 still finds attempt a1 (cancelled, terminal)');
  });

  it('counts every layer: callbacks repeat where starts do not', () => {
    expect(rows.map((r) => [r.id, r.callbacks, r.starts, r.effects])).toEqual([
      ['I0', 1, 1, 1],
      ['I1', 2, 1, 1],
      ['I2', 2, 1, 1],
      ['I3', 2, 1, 1],
      ['I4', 2, 1, 1],
      ['I5', 1, 1, 1],
      ['I6', 9, 1, 1],
      ['I7', 2, 2, 2],
    ]);
    for (const r of rows) expect(r.violations).toEqual([]);
  });

  it('I6 holds in every interleaving of the eight kernels, with the execution finishing at any point (pinned state count)', () => {
    const options = { ...SCENARIO_OPTIONS, faultsMax: { ...NO_FAULTS, damage: 2 } };
    const system = receiptsSystem(options);
    const k = FIRST_COMMAND.key;
    const ready = play(system, handleAll(system, startRun(system), () => k), [damage(k, 'completed'), damage(k, 'pending')]).state;
    const r = explore({ ...system, initial: () => ready }, { statesMax: 1_000_000, stopAtFirst: false });
    expect(r.violations).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.states).toBe(28_394);
  });
});
