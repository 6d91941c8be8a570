/**
 * A check without --old-rules of a rule set that extends another says that
 * the upgrade from it was not checked, and how to check it (docs/rules.md,
 * 'Version skew'): a change is deployed from something, and some flaws show
 * only with both versions running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../check-report.ts';
import { runCli } from './test-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-upgrade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RULES = 'properties/rule-api/retry-window.ts';
const LINE = `Not checked: the upgrade from fail-closed, which this rule set extends. A rolling deploy runs both side by side (version skew); check it: npx outbox-sim check --rules ./${RULES} --old-rules fail-closed`;

describe('the upgrade a check leaves out', () => {
  it('is named, with the command that checks it, for a rule set that extends another', async () => {
    const r = await runCli('check', '--rules', RULES, '--swarm-only', '--seeds', '20', '--out', tmp);
    expect(r.out).toContain(LINE);
    const json = await runCli('check', '--rules', RULES, '--swarm-only', '--seeds', '20', '--json', '--out', tmp);
    expect((JSON.parse(json.out.join('\n')) as CheckReport).upgrade).toEqual({ from: 'fail-closed', command: `npx outbox-sim check --rules ./${RULES} --old-rules fail-closed` });
  });
  it('is not there once an older version ran beside it, nor for a rule set that extends none', async () => {
    const skewed = await runCli('check', '--rules', RULES, '--old-rules', 'fail-closed', '--swarm-only', '--seeds', '20', '--out', tmp);
    expect(skewed.out.some((l) => l.startsWith('Not checked: the upgrade'))).toBe(false);
    const alone = await runCli('check', '--swarm-only', '--seeds', '20', '--json', '--out', tmp);
    expect((JSON.parse(alone.out.join('\n')) as CheckReport).upgrade).toBeUndefined();
  });
});
