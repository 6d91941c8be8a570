/**
 * Design-review commands: compare, diff and recheck, and the corpus replaying
 * exactly.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from './make-corpus.ts';
import { runCli as run } from './test-cli.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'review-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));


const CORPUS = CORPUS_DIR;

describe('the corpus', () => {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.trace.jsonl'));
  it('holds a counterexample of each flawed catalog rule set', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });
  it.each(files)('%s replays identically (exit 0)', async (f) => {
    const r = await run('replay', join(CORPUS, f));
    expect(r.out[0]).toContain('replays identically');
    expect(r.code).toBe(0);
  });
});

describe('outbox-sim recheck', () => {
  it('reports no longer violates for every corpus trace under fail-closed (exit 0)', async () => {
    const r = await run('recheck', CORPUS, '--rules', 'fail-closed', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]) as { rows: { verdict: string; departedAt: number | null }[] };
    expect(j.rows.length).toBeGreaterThanOrEqual(2);
    for (const row of j.rows) {
      expect(row.verdict).toBe('no longer violates');
      expect(row.departedAt).toBeGreaterThan(0);
    }
  });
  it('reports still violates under fresh-cycle (exit 1)', async () => {
    const r = await run('recheck', CORPUS, '--rules', 'fresh-cycle');
    expect(r.code).toBe(1);
    expect(r.out.join('\n')).toContain('still violates');
  });
  it('a folder with no traces is bad input', async () => {
    mkdirSync(join(tmp, 'empty'), { recursive: true });
    const r = await run('recheck', join(tmp, 'empty'), '--rules', 'fail-closed');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
  });
});

describe('outbox-sim diff', () => {
  it('finds the shortest run on which fail-closed and fresh-cycle differ, and writes both traces', async () => {
    const out = join(tmp, 'diff');
    const r = await run('diff', 'fail-closed', 'fresh-cycle', '--json', '--out', out);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out[0]) as { differ: boolean; steps: number; old: { path: string }; new: { path: string } };
    expect(j.differ).toBe(true);
    expect(j.steps).toBeLessThanOrEqual(10);
    expect(existsSync(j.old.path)).toBe(true);
    expect(existsSync(j.new.path)).toBe(true);
    expect((await run('replay', j.old.path)).code).toBe(0);
    expect((await run('replay', j.new.path)).code).toBe(0);
  });
  it('finds no difference between a rule set and itself (exit 0)', async () => {
    const r = await run('diff', 'fail-closed', 'fail-closed', '--engines', '1', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0])).toMatchObject({ differ: false, complete: true });
  });
});

describe('outbox-sim compare', () => {
  it('md: the flawed rule sets show a violation with a trace, fail-closed holds', async () => {
    const r = await run('compare', 'fail-closed', 'fresh-cycle', 'fresh-cycle-after-definite', '--format', 'md', '--seeds', '600', '--max-states', '30000', '--out', join(tmp, 'cmp'));
    const md = r.out.join('\n');
    const row = (name: string) => md.split('\n').find((l) => l.startsWith(`| \`${name}\``)) ?? '';
    expect(row('fail-closed')).not.toContain('VIOLATED');
    expect(row('fail-closed')).toContain('holds');
    expect(row('fresh-cycle')).toMatch(/VIOLATED: trace [0-9a-f]{12}/);
    expect(row('fresh-cycle-after-definite')).toMatch(/VIOLATED: trace [0-9a-f]{12}/);
    expect(md).toContain('npx outbox-sim replay');
  });
  it('json rows name rules, property, verdict, trace and steps', async () => {
    const r = await run('compare', 'fresh-cycle', '--format', 'json', '--seeds', '300', '--max-states', '20000', '--out', join(tmp, 'cmp2'));
    const j = JSON.parse(r.out[0]) as { rows: { rules: string; property: string; verdict: string; trace: string | null; steps: number | null }[] };
    const phantom = j.rows.find((x) => x.property === 'no-phantom-delivery');
    expect(phantom).toMatchObject({ rules: 'fresh-cycle', verdict: 'violated' });
    expect(phantom?.steps).toBeGreaterThan(0);
  });
});
