/**
 * A trace is data: replay and recheck never import a file a trace names. A
 * catalog rule set is taken by name; a rule file runs only when the user
 * passes it (`--rules`, `--old-rules`) and its content hash is the recorded
 * one, checked before it runs. `--under R` re-runs a recorded world under R.
 * Each crafted trace here has valid checksums, as a hostile or stale file
 * would.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTrace, type TraceHeader, type TraceRules } from '../trace-format.ts';
import { readTrace } from '../../traces/read.ts';
import { fileHash } from '../rules-loader.ts';
import { main } from './main.ts';
import { runCli as run } from './test-cli.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'trust-'));
const outside = mkdtempSync(join(tmpdir(), 'outbox-sim-trust-'));
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

let recorded: ReturnType<typeof readTrace>;

beforeAll(async () => {
  const quiet = { out: () => undefined, err: () => undefined, tty: false };
  await main(['check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '300', '--json', '--out', join(tmp, 'found')], quiet);
  recorded = readTrace(join(tmp, 'found', readdirSync(join(tmp, 'found'))[0]));
});


let files = 0;
/** A rule file (fresh-cycle, the recording's rules) that leaves a marker file when it runs. */
function markingRuleFile(): { path: string; marker: string; ran: () => boolean } {
  files += 1;
  const path = join(outside, `rules-${files}.ts`);
  const marker = join(outside, `ran-${files}`);
  writeFileSync(path, `import { writeFileSync } from 'node:fs';\nimport { freshCycle } from 'outbox-sim';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default freshCycle;\n`);
  return { path, marker, ran: () => existsSync(marker) };
}

/** As the loader records a user file: its path from here, and its content hash. */
function asRecorded(path: string, hash = fileHash(path)): TraceRules {
  return { name: 'fresh-cycle', source: relative(process.cwd(), path), hash };
}

/** The recorded trace with a changed header, sealed and written alone in a folder; returns its path. */
function crafted(name: string, change: Partial<TraceHeader>): string {
  const header = { ...recorded.header, ...change };
  return writeTrace(join(tmp, name), header, recorded.steps).path;
}

describe('replay never runs what a trace names', () => {
  it('a trace naming a rule file: exit 2, says to pass it with --rules, the file is not run', async () => {
    const f = markingRuleFile();
    const r = await run('replay', crafted('named', { rules: asRecorded(f.path) }));
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain(`pass that file with --rules ${relative(process.cwd(), f.path)}`);
    expect(f.ran()).toBe(false);
  });
  it('a "catalog" rule set whose name is a path: exit 2, nothing is run', async () => {
    const f = markingRuleFile();
    const r = await run('replay', crafted('catalog-path', { rules: { name: f.path, source: 'catalog', hash: null } }));
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('which this version of outbox-sim does not have');
    expect(f.ran()).toBe(false);
  });
  it('old rules naming a rule file: exit 2, says --old-rules, the file is not run', async () => {
    const f = markingRuleFile();
    const r = await run('replay', crafted('old-named', { oldRules: asRecorded(f.path) }));
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('--old-rules');
    expect(f.ran()).toBe(false);
  });
  it('--rules FILE whose content hash differs from the recording: exit 2 saying so, the file is not run', async () => {
    const f = markingRuleFile();
    const r = await run('replay', crafted('stale', { rules: asRecorded(f.path, '0123456789abcdef') }), '--rules', f.path);
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('is not the one the trace was recorded with');
    expect(r.err[0]).toContain('0123456789abcdef');
    expect(f.ran()).toBe(false);
  });
  it('--rules FILE with the recorded hash: replays identically (exit 0)', async () => {
    const f = markingRuleFile();
    const r = await run('replay', crafted('supplied', { rules: asRecorded(f.path) }), '--rules', f.path);
    expect(r.out[0]).toContain('replays identically');
    expect(r.code).toBe(0);
    expect(f.ran()).toBe(true);
  });
  it('--rules PATH that does not exist: says the trace recorded a path relative to where it was made', async () => {
    const f = markingRuleFile();
    const r = await run('replay', crafted('gone', { rules: asRecorded(f.path) }), '--rules', './nowhere/rules.ts');
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(/rule file \.\/nowhere\/rules\.ts does not exist; the trace was recorded with \S+rules-\d+\.ts, relative to the folder it was made in/);
  });
});

describe('replay --under re-runs; --rules supplies', () => {
  it('--under R re-runs the recorded world under R', async () => {
    const r = await run('replay', crafted('plain', {}), '--under', 'fail-closed');
    expect(r.code).toBe(0);
    expect(r.out[0]).toContain('under fail-closed: no longer violates');
  });
  it('--under R of a trace that recorded no violation says so, as recheck does: not "still" nor "no longer"', async () => {
    const clean = crafted('clean', { violation: null });
    const now = await run('replay', clean, '--under', 'fresh-cycle', '--json');
    expect(JSON.parse(now.out[0])).toMatchObject({ verdict: 'newly violates', recorded: null });
    const text = await run('replay', clean, '--under', 'fresh-cycle');
    expect(text.out[0]).toContain('under fresh-cycle: recorded no violation; now violates');
    const none = await run('replay', clean, '--under', 'fail-closed');
    expect([none.code, none.out[0]]).toEqual([0, expect.stringContaining('under fail-closed: recorded no violation; none now') as string]);
  });
  it('replay --json names the property the trace ends in, as its line does', async () => {
    const r = await run('replay', crafted('plain', {}), '--json');
    expect(JSON.parse(r.out[0])).toMatchObject({ identical: true, property: recorded.header.violation?.property });
  });
  it('--rules with another catalog rule set than recorded is refused, pointing at --under', async () => {
    const r = await run('replay', crafted('plain', {}), '--rules', 'fail-closed');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('use --under fail-closed');
  });
  it('--rules naming the recorded catalog rule set replays exactly', async () => {
    expect((await run('replay', crafted('plain', {}), '--rules', 'fresh-cycle')).code).toBe(0);
  });
  it('--rules and --under together are refused', async () => {
    const r = await run('replay', crafted('plain', {}), '--rules', 'fresh-cycle', '--under', 'fail-closed');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('give one of them');
  });
});

describe('recheck never runs what a trace names', () => {
  it('re-running under R needs none of the recorded rule files: the named one is not run', async () => {
    const f = markingRuleFile();
    const dir = join(tmp, 'recheck-named');
    writeTrace(dir, { ...recorded.header, rules: asRecorded(f.path) }, recorded.steps);
    const r = await run('recheck', dir, '--under', 'fresh-cycle');
    expect(r.code).toBe(1);
    expect(r.out.join('\n')).toContain('still violates');
    expect(f.ran()).toBe(false);
  });
  it('old rules recorded as a file: exit 2 asking for --old-rules, not run; supplied with the right hash, it runs', async () => {
    const f = markingRuleFile();
    const dir = join(tmp, 'recheck-old');
    writeTrace(dir, { ...recorded.header, oldRules: asRecorded(f.path) }, recorded.steps);
    const r = await run('recheck', dir, '--under', 'fail-closed');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('--old-rules');
    expect(f.ran()).toBe(false);
    const supplied = await run('recheck', dir, '--under', 'fail-closed', '--old-rules', f.path, '--json');
    expect(supplied.code).not.toBe(2);
    expect(f.ran()).toBe(true);
  });
  it('--rules is still accepted as the former name of --under', async () => {
    const dir = join(tmp, 'recheck-alias');
    writeTrace(dir, recorded.header, recorded.steps);
    const r = await run('recheck', dir, '--rules', 'fail-closed', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0])).toMatchObject({ rules: 'fail-closed' });
  });
});

describe('replay of a trace with an edited, resealed label', () => {
  it('a label of 100,000 characters is cut as show cuts it: one bounded line (before: the whole label printed)', async () => {
    const steps = recorded.steps.map((s, i) => (i === 0 ? { ...s, label: 'y'.repeat(100_000) } : s));
    const r = await run('replay', writeTrace(join(tmp, 'long-label'), recorded.header, steps).path);
    expect(r.code).toBe(1);
    expect(r.out).toHaveLength(1);
    expect(r.out[0]).toMatch(/^trace \w+ diverges at step 1: label "[^"]*", recorded "y+… \([\d,]+ more characters\)$/);
    expect(r.out[0].length).toBeLessThan(400);
  });
});
