/**
 * The line a search's broken decision ends a command with: where in the
 * search (and, in check's suite, which small world), and the trace written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { steppersFor } from '../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../outbox/explore-options.ts';
import { exploreOutbox } from '../outbox/explore-outbox.ts';
import { faultTraced } from './rule-fault.ts';
import { attemptedRules } from '../outbox/test-fault-rules.ts';

const dir = mkdtempSync(join(tmpdir(), 'rule-fault-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Throws for a record attempted once: met past the state the search expands, once faults stop.
const rules = attemptedRules();
const pair = { rules, rulesOrigin: { name: rules.name, source: 'catalog', hash: null }, oldRules: null, oldRulesOrigin: null };
const options = exploreOptions(EXPLORE_DEFAULTS);
const steppers = steppersFor(rules, null);
const search = () => exploreOutbox(options, { rules }, steppers, { statesMax: 100_000, liveness: true, stopAtFirst: true, symmetry: true });

/** The message of the error `faultTraced` ends the search with. */
function lineOf(world?: string): string {
  try {
    faultTraced(search, { pair, steppers, options, outDir: dir, origin: 'test', ...(world === undefined ? {} : { world }) });
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('the search did not break the decision');
}

describe('a broken decision in a search', () => {
  it('names the small world of check\'s suite it broke in', () => {
    expect(lineOf('default')).toMatch(/^rule set "attempted": selectable threw Error: attempted 1; at search depth \d+ of small world "default", expanding a state, once faults stopped and \d+ steps past it; trace of the \d+ steps to it: /);
  });
  it('names no world for explore', () => {
    expect(lineOf()).toMatch(/; at search depth \d+, expanding a state, once faults stopped/);
  });
});
