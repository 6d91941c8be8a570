/**
 * A guarded decision's fault leaves either stepper as itself: the fast path
 * calls decisions directly, and XState's `transition()`, which rewraps an
 * error thrown in a guard as a plain Error, is unwrapped; the run's position
 * is attached to it.
 */
import { describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { guardRules, RuleFault } from '../../model/rule-contract.ts';
import { extendRules } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, steppersFor, type StepperKind } from '../check.ts';
import { runPositionOf, runSeed } from '../core/random.ts';
import { outboxSystem } from './outbox-system.ts';
import { swarmOptions } from './options.ts';

describe('a rule fault through the steppers', () => {
  for (const kind of ['compiled', 'xstate'] as StepperKind[]) {
    for (const decision of ['admit', 'mayClaim', 'classify', 'dispose'] as const) {
      it(`${kind}: ${decision} (a ${decision === 'classify' ? 'action' : 'guard'}) faults as itself, at a step`, () => {
        const rules = guardRules(extendRules(failClosed, { name: 'bad', summary: '', [decision]: () => 'strange' as never }));
        // The first seed that asks the decision (a seed may never POST, and so never classify).
        let caught: unknown;
        let seed = 1;
        for (; seed <= 20 && caught === undefined; seed++) {
          const system = outboxSystem(swarmOptions(seed, { skew: false }), { rules }, steppersFor(rules, null, kind));
          try {
            runSeed(system, seed, BOUNDS_DEFAULT);
          } catch (err) {
            caught = err;
          }
        }
        expect(caught).toBeInstanceOf(RuleFault);
        expect(caught).toMatchObject({ decision, kind: 'malformed' });
        const at = runPositionOf(caught);
        expect(at?.seed).toBe(seed - 1);
        expect(at?.step).toBeGreaterThan(0);
        expect(at?.events).toHaveLength((at?.step ?? 0) - 1);
      });
    }
  }
});
