/**
 * A rule file's console output goes to stderr, on the command's thread and
 * on worker threads alike: `check --json`'s stdout stays one JSON document,
 * as it did not when a rule file logged (an audit saw "hello from import"
 * before the JSON).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'rule-output-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("a rule file's console output", () => {
  it.each(['1', '2'])('reaches stderr, and --json stdout parses, with %s worker(s)', (workers) => {
    const r = spawnSync(process.execPath, ['bin/outbox-sim.mjs', 'check', '--rules', './sim/test-rules-print.ts', '--swarm-only', '--seeds', '300', '--workers', workers, '--json', '--out', tmp], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; runs: number };
    expect(report.runs).toBe(300);
    expect(r.stdout).not.toContain('classify');
    expect(r.stderr).toContain('rule file loaded');
    expect(r.stderr).toMatch(/^classify [a-z0-9-]+$/m);
    expect(r.stderr).toMatch(/^classify info [a-z0-9-]+$/m);
  }, 60_000);
});
