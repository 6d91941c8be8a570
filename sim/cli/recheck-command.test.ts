/**
 * `outbox-sim recheck` on folders as users make them: traces recorded with
 * and without a rule file for the older engines side by side, and diff
 * traces, which record no violation. Each refusal names the trace it is
 * about; each verdict says what the trace recorded when it differs from
 * what it violates now.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrace } from '../../traces/read.ts';
import { writeTrace } from '../trace-format.ts';
import { recheckTable, recheckVerdict } from './recheck-command.ts';
import { runCli as run } from './test-cli.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'recheck-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A rule file of the repository, as a user passes it for the older engines. */
const OLD_RULES = 'properties/rule-api/transient-writes-nothing.ts';

/** The one trace a command wrote into `dir`. */
function onlyTrace(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.trace.jsonl'));
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
}

interface RecheckJson {
  rows: { file: string; recordedProperty: string | null; verdict: string; property: string | null }[];
}

let skewed: string;
let plain: string;
let diffOld: string;

beforeAll(async () => {
  expect((await run('explore', '--rules', 'fresh-cycle', '--old-rules', OLD_RULES, '--max-states', '200000', '--quiet', '--out', join(tmp, 'skewed'))).code).toBe(1);
  skewed = onlyTrace(join(tmp, 'skewed'));
  expect((await run('explore', '--rules', 'fresh-cycle', '--quiet', '--out', join(tmp, 'plain'))).code).toBe(1);
  plain = onlyTrace(join(tmp, 'plain'));
  const diff = await run('diff', 'fail-closed', 'fresh-cycle', '--json', '--out', join(tmp, 'diff'));
  diffOld = (JSON.parse(diff.out[0]) as { old: { path: string } }).old.path;
}, 60_000);

/** A folder holding copies of `traces`. */
function folder(name: string, ...traces: string[]): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const t of traces) copyFileSync(t, join(dir, t.split('/').pop() ?? t));
  return dir;
}

describe('recheck of a folder mixing traces recorded with and without old rules', () => {
  it('--old-rules serves the trace recorded with it; the other is re-run without it', async () => {
    const dir = folder('mixed', skewed, plain);
    const r = await run('recheck', dir, '--under', 'fail-closed', '--old-rules', OLD_RULES, '--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]) as RecheckJson;
    expect(j.rows.map((row) => row.verdict)).toEqual(['no longer violates', 'no longer violates']);
  });
  it('without --old-rules: exit 2, one line naming the trace that needs it', async () => {
    const dir = folder('mixed-unsupplied', skewed, plain);
    const r = await run('recheck', dir, '--under', 'fail-closed');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain(`${join(dir, skewed.split('/').pop() ?? '')}: `);
    expect(r.err[0]).toContain('pass that file with --old-rules ./properties/rule-api/transient-writes-nothing.ts');
  });
  it('--old-rules that serves no trace of the folder: exit 2, one line saying to leave it out', async () => {
    const dir = folder('none-skewed', plain);
    const r = await run('recheck', dir, '--under', 'fail-closed', '--old-rules', OLD_RULES);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain('leave --old-rules out');
  });
});

describe('recheck verdicts say what the trace recorded', () => {
  it('a diff trace (no violation recorded) that violates now: says so, exit 1', async () => {
    const dir = folder('diff-old', diffOld);
    const r = await run('recheck', dir, '--under', 'fresh-cycle');
    expect(r.code).toBe(1);
    const text = r.out.join('\n');
    expect(text).toContain('recorded no violation; now violates no-silent-loss');
    expect(text).not.toContain('still violates');
  });
  it('a diff trace that violates nothing now: says so, exit 0', async () => {
    const dir = folder('diff-old-held', diffOld);
    const r = await run('recheck', dir, '--under', 'fail-closed');
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    expect(text).toContain('recorded no violation; none now');
    expect(text).not.toContain('no longer violates');
    const j = JSON.parse((await run('recheck', dir, '--under', 'fail-closed', '--json')).out[0]) as RecheckJson;
    expect(j.rows[0]).toMatchObject({ recordedProperty: null, verdict: 'violates nothing', property: null });
  });
  it('a trace recorded violating one property that now violates another names both', async () => {
    const recorded = readTrace(plain);
    const violation = recorded.header.violation;
    expect(violation).not.toBeNull();
    if (violation === null) return;
    const dir = join(tmp, 'other-property');
    writeTrace(dir, { ...recorded.header, violation: { ...violation, property: 'honest-park' } }, recorded.steps);
    const r = await run('recheck', dir, '--under', 'fresh-cycle');
    expect(r.code).toBe(1);
    expect(r.out.join('\n')).toContain('violates no-silent-loss (recorded honest-park)');
  });
  it('one trace is "1 trace"', async () => {
    const r = await run('recheck', folder('one', plain), '--under', 'fail-closed');
    expect(r.out[0]).toMatch(/: 1 trace$/);
  });
});

describe('recheckVerdict', () => {
  it('compares the recorded violation with the one now', () => {
    expect(recheckVerdict('p', 'p')).toBe('still violates');
    expect(recheckVerdict('p', 'q')).toBe('violates another property');
    expect(recheckVerdict('p', null)).toBe('no longer violates');
    expect(recheckVerdict(null, 'q')).toBe('newly violates');
    expect(recheckVerdict(null, null)).toBe('violates nothing');
  });
});

describe('recheckTable', () => {
  it('keeps two spaces between columns whatever the length of the recorded rule set and property', () => {
    const row = { trace: '430c3316a758', recordedRules: 'g04-tombstone-reopens-new-body', recordedProperty: 'no-phantom-delivery', verdict: 'no longer violates' as const, property: null, departedAt: 11, departedLabel: 'e1 scan a' };
    const [head, line] = recheckTable([row]);
    expect(line).toMatch(/^430c3316a758 {2}g04-tombstone-reopens-new-body: no-phantom-delivery {2}no longer violates {2,}step 11 \(e1 scan a\)$/);
    expect(head.indexOf('verdict')).toBe(line.indexOf('no longer violates'));
  });
});

describe('recheck of a folder that is not there', () => {
  it('says it does not exist, and where the shipped corpus is; a file is told apart from a missing folder', async () => {
    const missing = await run('recheck', 'traces/no-such-corpus', '--under', 'fail-closed');
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual(['outbox-sim: traces/no-such-corpus does not exist; give a folder of traces (the corpus this package ships is node_modules/outbox-sim/traces/corpus in a project that installed it)']);
    const file = await run('recheck', 'package.json', '--under', 'fail-closed');
    expect(file.err).toEqual(['outbox-sim: package.json is not a folder of traces; give the folder (replay TRACE --under R re-runs one trace)']);
  });
});
