/**
 * A check without --old-rules of a rule set that extends a catalog rule set
 * runs the upgrade from it in its skewed small worlds and in one seed in
 * four, and says so; with --no-upgrade it says the upgrade was not
 * checked, and how to check it (docs/rules.md, 'Version skew'): a change is
 * deployed from something, and some flaws show only with both versions
 * running.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../check-report.ts';
import { smallWorlds } from '../small-worlds.ts';
import { skewDrawnFor } from '../outbox/options.ts';
import { runCli } from './test-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-upgrade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RULES = 'properties/rule-api/retry-window.ts';
/** Seeds 1-20 that draw skew under the upgrade by default. */
const SKEWED_SEEDS = Array.from({ length: 20 }, (_, i) => i + 1).filter(skewDrawnFor);
const NOT_CHECKED = `Not checked: the upgrade from fail-closed, which this rule set extends. A rolling deploy runs both side by side (version skew); check it: npx outbox-sim check --rules ./${RULES} --old-rules fail-closed`;
/** Safe alone, flawed beside fail-closed: a key format changed. */
const SKEW_ONLY = 'properties/rule-api/key-format-changed.ts';

const report = (r: { out: string[] }): CheckReport => JSON.parse(r.out.join('\n')) as CheckReport;

describe('the upgrade from the rule set a rule set extends', () => {
  it('is checked by default in the skewed small worlds, after the rule set\'s own, and in the seeds that draw skew', async () => {
    const r = await runCli('check', '--rules', SKEW_ONLY, '--seeds', '20', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const json = report(r);
    expect(SKEWED_SEEDS.length).toBeGreaterThan(0);
    expect(json.upgrade).toEqual({ from: 'fail-closed', checked: true, worlds: smallWorlds(true).length - smallWorlds(false).length, seeds: SKEWED_SEEDS.length, command: `npx outbox-sim check --rules ./${SKEW_ONLY} --old-rules fail-closed --small-worlds-only` });
    expect(json.oldRules).toBeNull();
    const names = json.smallWorlds?.worlds.map((w) => w.name) ?? [];
    expect(names).toEqual(smallWorlds(true, { broker: null }, true).map((w) => w.name));
    const skewed = smallWorlds(true).length - smallWorlds(false).length;
    expect(names.slice(-skewed).every((n) => n.startsWith('skew'))).toBe(true);
    expect(names.slice(0, -skewed).some((n) => n.startsWith('skew'))).toBe(false);
    // The flaw is the upgrade's: only skewed worlds hold it; the seeds that drew skew upgrade their old engines.
    const violated = json.smallWorlds?.worlds.filter((w) => w.violations.length > 0).map((w) => w.name) ?? [];
    expect(violated.length).toBeGreaterThan(0);
    expect(violated.every((n) => n.startsWith('skew'))).toBe(true);
    // A seed that drew skew runs both versions; with --no-upgrade it does not.
    const seed = String(SKEWED_SEEDS[0]);
    const options = async (...flags: string[]) => (await runCli('check', '--rules', SKEW_ONLY, '--seed', seed, ...flags, '--out', tmp)).out[1];
    expect([await options(), await options('--no-upgrade')]).toEqual([expect.stringContaining(' skew=true '), expect.stringContaining(' skew=false ')]);
  });
  it('says so in the header and the summary, and its counterexample replays with the rule file alone', async () => {
    const r = await runCli('check', '--rules', SKEW_ONLY, '--seeds', '20', '--out', tmp);
    expect(r.out[0]).toContain('rules key-format-changed, and the upgrade from fail-closed (which it extends) in the small worlds and one seed in four;');
    const skewed = smallWorlds(true).length - smallWorlds(false).length;
    expect(r.out).toContain(`Upgrade checked: fail-closed, which this rule set extends, ran beside it in the ${skewed} skewed small worlds and in ${SKEWED_SEEDS.length} of the swarm's seeds (one in four) (a rolling deploy runs both side by side; --old-rules fail-closed skews every seed, --no-upgrade leaves the upgrade out; where the rules deployed today are another version, --old-rules <its file> checks beside it)`);
    expect(r.out).toContain('    held only by worlds of both versions: it shows while old and new engines drain the outbox side by side (version skew), not under the new rules alone');
    const replay = r.out.find((l) => l.trimStart().startsWith('replay: '))?.trim().slice('replay: npx outbox-sim '.length).split(' ') ?? [];
    expect(replay).toEqual(['replay', expect.stringMatching(/\.trace\.jsonl$/), '--rules', `./${SKEW_ONLY}`]);
    expect((await runCli(...replay)).code).toBe(0);
  });
  it('finds in a seed that drew skew a flaw only both versions hold, with no small world, and its trace names the old rules and replays', async () => {
    // Seed 147 is the first of seeds 1-5,000 at which `check --rules key-format-changed --swarm-only` breaks it.
    const r = await runCli('check', '--rules', SKEW_ONLY, '--seed', '147', '--out', tmp);
    const none = await runCli('check', '--rules', SKEW_ONLY, '--seed', '147', '--no-upgrade', '--out', tmp);
    expect([r.code, none.code, skewDrawnFor(147)]).toEqual([1, 0, true]);
    const replay = r.out.find((l) => l.trimStart().startsWith('replay: '))?.trim().slice('replay: npx outbox-sim '.length).split(' ') ?? [];
    const trace = replay[1] ?? '';
    expect(JSON.parse(readFileSync(trace, 'utf8').split('\n')[0]).oldRules).toEqual({ hash: null, name: 'fail-closed', source: 'catalog' });
    expect((await runCli(...replay)).code).toBe(0);
  });
  it('is left out with --no-upgrade, and named with the command that checks it; the flaw it holds is then not found', async () => {
    const json = report(await runCli('check', '--rules', SKEW_ONLY, '--no-upgrade', '--seeds', '20', '--json', '--out', tmp));
    expect(json.ok).toBe(true);
    expect(json.upgrade).toEqual({ from: 'fail-closed', checked: false, command: `npx outbox-sim check --rules ./${SKEW_ONLY} --old-rules fail-closed` });
    expect(json.smallWorlds?.worlds.some((w) => w.name.startsWith('skew'))).toBe(false);
  });
  it('is checked in the seeds that draw skew where no small world runs (the swarm alone), and says so', async () => {
    const r = await runCli('check', '--rules', RULES, '--swarm-only', '--seeds', '20', '--out', tmp);
    expect(r.out[0]).toContain('rules retry-window, and the upgrade from fail-closed (which it extends) in one seed in four;');
    expect(r.out).toContain(`Upgrade checked: fail-closed, which this rule set extends, ran beside it in ${SKEWED_SEEDS.length} of the swarm's seeds (one in four) (a rolling deploy runs both side by side; --old-rules fail-closed skews every seed, --no-upgrade leaves the upgrade out; where the rules deployed today are another version, --old-rules <its file> checks beside it)`);
    const none = await runCli('check', '--rules', RULES, '--swarm-only', '--no-upgrade', '--seeds', '20', '--out', tmp);
    expect(none.out).toContain(NOT_CHECKED);
  });
  it('is not named once an older version ran beside it, nor for a rule set that extends none; --old-rules with --no-upgrade is refused', async () => {
    const skewed = await runCli('check', '--rules', RULES, '--old-rules', 'fail-closed', '--swarm-only', '--seeds', '20', '--out', tmp);
    expect(skewed.out.some((l) => l.startsWith('Not checked: the upgrade') || l.startsWith('Upgrade checked'))).toBe(false);
    const alone = await runCli('check', '--swarm-only', '--seeds', '20', '--json', '--out', tmp);
    expect(report(alone).upgrade).toBeUndefined();
    // A user's rule file written whole (no extendRules): no older version is known, and the summary says none ran beside it.
    const whole = join(tmp, 'written-whole.ts');
    writeFileSync(whole, `import failClosed from '${resolve('model/catalog/fail-closed.ts')}';\nconst { extends: _e, ...rest } = failClosed as typeof failClosed & { extends?: string };\nexport default { ...rest, name: 'written-whole' };\n`);
    const written = await runCli('check', '--rules', whole, '--swarm-only', '--seeds', '5', '--out', tmp);
    expect(written.out.find((l) => l.startsWith('Not checked: a rolling upgrade.'))).toContain('This rule set extends no catalog rule set, so no older version ran beside it;');
    const writtenJson = await runCli('check', '--rules', whole, '--swarm-only', '--seeds', '5', '--json', '--out', tmp);
    expect(report(writtenJson).upgrade).toMatchObject({ from: null, checked: false });
    const both = await runCli('check', '--rules', RULES, '--old-rules', 'fail-closed', '--no-upgrade', '--seeds', '20', '--out', tmp);
    expect(both.code).toBe(2);
    expect(both.err.join('\n')).toContain('--old-rules runs an older version beside the rules and --no-upgrade leaves the upgrade out: give one of them');
  });
});
