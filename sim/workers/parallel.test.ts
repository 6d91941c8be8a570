/**
 * Worker threads and shards change nothing but speed: the report and the
 * traces are the same with 1 or 2 workers, and two shards merged equal one
 * unsharded run.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../check-report.ts';
import { main } from '../cli/main.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'par-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function json(...argv: string[]): Promise<{ code: number; report: CheckReport }> {
  const out: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: () => undefined, tty: false });
  return { code, report: JSON.parse(out.join('\n')) as CheckReport };
}

/** A report without its timing and output paths. */
function comparable(r: CheckReport): unknown {
  return { ...r, seconds: 0, smallWorldsNotRun: undefined, violations: r.violations.map((v) => ({ ...v, path: '', replay: '' })) };
}

function traces(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

describe('parallel check', () => {
  it('2 workers give the report and traces of 1 worker', async () => {
    const one = await json('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '600', '--workers', '1', '--json', '--out', join(tmp, 'w1'));
    const two = await json('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '600', '--workers', '2', '--json', '--out', join(tmp, 'w2'));
    expect(one.code).toBe(1);
    expect(comparable(two.report)).toEqual(comparable(one.report));
    expect(traces(join(tmp, 'w2'))).toEqual(traces(join(tmp, 'w1')));
  });
  it('with a rule file (its threads load TypeScript through tsx, not the bundle), 2 workers give the report of 1', async () => {
    const rules = './properties/mutants/envelope-id-is-key.ts';
    const one = await json('check', '--swarm-only', '--rules', rules, '--seeds', '300', '--workers', '1', '--json', '--out', join(tmp, 'f1'));
    const two = await json('check', '--swarm-only', '--rules', rules, '--seeds', '300', '--workers', '2', '--json', '--out', join(tmp, 'f2'));
    expect(comparable(two.report)).toEqual(comparable(one.report));
    expect(traces(join(tmp, 'f2'))).toEqual(traces(join(tmp, 'f1')));
  });
  it('compare --workers 2 does not wait for a thread that holds seeds and gets no CPU: the table of 1 worker', async () => {
    // The fixture's worker thread stalls for a minute in its first claim decision; the test's budget is less.
    const table = async (workers: string): Promise<{ code: number; out: string[] }> => {
      const out: string[] = [];
      const code = await main(['compare', './sim/workers/test-thread-stalls.ts', '--seeds', '3000', '--format', 'json', '--workers', workers, '--out', join(tmp, `cmp${workers}`)], { out: (l) => out.push(l), err: () => undefined, tty: false });
      return { code, out };
    };
    const one = await table('1');
    const two = await table('2');
    expect(one.code).toBe(0);
    expect(two).toEqual(one);
  }, 45_000);

  it('shards 1/2 and 2/2, merged, equal the unsharded run', async () => {
    const whole = await json('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '600', '--json', '--out', join(tmp, 'whole'));
    for (const i of [1, 2]) {
      await json('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '600', '--shard', `${i}/2`, '--shard-out', join(tmp, 'shards', `s${i}.json`), '--json', '--out', join(tmp, `part${i}`));
    }
    const merged = await json('merge', join(tmp, 'shards', 's1.json'), join(tmp, 'shards', 's2.json'), '--json', '--out', join(tmp, 'merged'));
    expect(merged.code).toBe(whole.code);
    expect(comparable(merged.report)).toEqual(comparable(whole.report));
    expect(traces(join(tmp, 'merged'))).toEqual(traces(join(tmp, 'whole')));
  });
  it('merge refuses an incomplete set of shards in one line (exit 2)', async () => {
    const err: string[] = [];
    const code = await main(['merge', join(tmp, 'shards', 's1.json')], { out: () => undefined, err: (l) => err.push(l), tty: false });
    expect(code).toBe(2);
    expect(err).toEqual(['outbox-sim: shard 2/2 is missing']);
  });
});
