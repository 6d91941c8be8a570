/**
 * A rule decision that calls process.exit(0) inside a library call ends the
 * process with exit code 2 and one line, as the command line does, not
 * with 0 (a pass to a CI script); an exit of the caller's own, after the
 * call, keeps its code.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

mkdirSync('.tmp-test', { recursive: true });
const dir = mkdtempSync(join('.tmp-test', 'exit-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const api = resolve('sim/api/index.ts');

/** Runs a script that checks a rule set whose classify exits with `exitInDecision` (or never), then exits with 5. */
function runScript(name: string, exitInDecision: boolean): { status: number | null; stdout: string; stderr: string } {
  writeFileSync(
    join(dir, `${name}-rules.ts`),
    `import { extendRules, failClosed } from ${JSON.stringify(api)};
export default extendRules(failClosed, { name: '${name}', summary: '', classify: (r) => { if (${exitInDecision} && r === 'timeout') process.exit(0); return failClosed.classify(r); } });
`,
  );
  writeFileSync(
    join(dir, `${name}.mts`),
    `import { check } from ${JSON.stringify(api)};
await check({ rules: ${JSON.stringify(join(dir, `${name}-rules.ts`))}, seeds: 50, swarmOnly: true, workers: 1, out: ${JSON.stringify(join(dir, 'out'))} });
console.log('after check');
process.exit(5);
`,
  );
  const r = spawnSync(process.execPath, ['bin/run-ts.mjs', join(dir, `${name}.mts`)], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a library call guarded against a decision that ends the process', () => {
  it('exit code 2 and the command line\'s line, not the 0 the decision gave', { timeout: 150_000 }, () => {
    const r = runScript('exits', true);
    expect(r.status).toBe(2);
    expect(r.stdout).not.toContain('after check');
    expect(r.stderr.trim()).toMatch(/^outbox-sim: rule set "exits" \([^)]+\): classify ended the command from inside the call \(process\.exit\?\); in the probe for kept state before the command's own run \(the default swarm's seeds 1-17\), at seed \d+, step \d+: nothing was checked; a decision must return its answer$/);
  });
  it('leaves an exit of the caller\'s own, after the call, as it is', { timeout: 150_000 }, () => {
    const r = runScript('returns', false);
    expect(r.stdout).toContain('after check');
    expect([r.status, r.stderr]).toEqual([5, '']);
  });
});
