/**
 * The broker's `refuse-ok-false` (a 200 whose body says ok:false): the same
 * as `refuse-400` at the broker, offered only in a world whose rule sets
 * classify the two replies apart, so that a rule set reading them alike
 * searches and runs the world it did before the answer existed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { failClosed } from '../../../model/catalog/index.ts';
import { extendRules } from '../../../model/rules.ts';
import okFalseAsConfirmed from '../../../properties/mutants/ok-false-as-confirmed.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { exploreOutbox } from '../explore-outbox.ts';
import { labelOf } from '../world.ts';
import { answerInWorld } from './broker.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-ok-false-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command's exit code and its lines, both streams. */
async function run(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(argv, { out: (l) => lines.push(l), err: (l) => lines.push(l), tty: false });
  return { code, lines };
}

const MUTANT = './properties/mutants/ok-false-as-confirmed.ts';

describe('refuse-ok-false', () => {
  it('is in a world only where a rule set classifies ok-false apart from refused-400 (the checked one or the old one); a classify that throws on it is asked in the run', () => {
    const throwing = extendRules(failClosed, {
      name: 'throws-on-ok-false',
      summary: 'classify knows no ok-false',
      classify: (r) => {
        if (r === 'ok-false') throw new Error('no pattern');
        return failClosed.classify(r);
      },
    });
    expect(answerInWorld('refuse-ok-false', { rules: failClosed })).toBe(false);
    expect(answerInWorld('refuse-400', { rules: failClosed })).toBe(true);
    expect(answerInWorld('refuse-ok-false', { rules: okFalseAsConfirmed })).toBe(true);
    expect(answerInWorld('refuse-ok-false', { rules: failClosed, oldRules: okFalseAsConfirmed })).toBe(true);
    expect(answerInWorld('refuse-ok-false', { rules: throwing })).toBe(true);
  });

  it('a rule set reading ok:false as a 400 searches the states it did before; one reading it as success is found through it', () => {
    const search = (rules: typeof failClosed) =>
      exploreOutbox(exploreOptions(EXPLORE_DEFAULTS), { rules }, steppersFor(rules, null), { statesMax: 100_000, liveness: true });
    const clean = search(failClosed);
    expect([clean.complete, clean.states, clean.violations]).toEqual([true, 17_611, []]);
    const flawed = search(okFalseAsConfirmed);
    expect(flawed.violations.map((v) => v.violation.property)).toEqual(['no-phantom-delivery']);
    expect(flawed.violations[0].events.map(labelOf)).toContain('e1 POST -> refuse-ok-false');
  });

  it('diff meets it on both sides when one side tells it apart (before, fail-closed against the mutant was "no observable difference")', async () => {
    const r = await run('diff', 'fail-closed', MUTANT, '--json', '--out', join(dir, 'diff'));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.lines.join('\n'))).toMatchObject({ differ: true });
  });

  it('a trace holding it, re-run under rules reading it as a 400, meets it there too (no recorded event left out)', async () => {
    const found = await run('check', '--rules', MUTANT, '--small-worlds-only', '--stop-on-first', '--json', '--out', join(dir, 'traces'));
    const path = (JSON.parse(found.lines.join('\n')) as { smallWorlds: { worlds: { violations: { path: string }[] }[] } }).smallWorlds.worlds[0].violations[0].path;
    const under = await run('replay', path, '--under', 'fail-closed');
    expect(under.lines).toContainEqual(expect.stringMatching(/departs from the recording at step \d+ \(e1 POST -> refuse-ok-false\); 0 recorded events were not enabled/));
  }, 60_000);
});
