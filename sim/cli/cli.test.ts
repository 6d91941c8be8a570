/**
 * The CLI in-process: exit codes, one-line errors for bad input, rule files,
 * and the JSON shape of `check`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../check-report.ts';
import { main } from './main.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), tty: false }, out, err };
}

async function run(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, out: c.out.join('\n'), err: c.err };
}

// Rule files inside the checkout here; sim/rules-loader.test.ts has them outside it.
mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('outbox-sim rules', () => {
  it('--json lists the three catalog rule sets with summaries', async () => {
    const r = await run('rules', '--json');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { name: string; summary: string }[];
    expect(list.map((x) => x.name)).toEqual(['fail-closed', 'fresh-cycle', 'fresh-cycle-after-definite']);
    for (const x of list) expect(x.summary.length).toBeGreaterThan(20);
  });
});

describe('bad input is one line and exit 2', () => {
  it('an unknown rule set lists the catalog', async () => {
    const r = await run('check', '--rules', 'no-such-rules');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain('fail-closed, fresh-cycle, fresh-cycle-after-definite');
  });
  it('a malformed number names the flag', async () => {
    const r = await run('check', '--seeds', '12x');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['outbox-sim: --seeds must be a whole number from 1 to 10000000, got "12x"']);
  });
  it('no command, or an unknown one', async () => {
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.err[0]).toContain('give a command');
    const unknown = await run('frob');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toEqual(["outbox-sim: unknown command 'frob' (see outbox-sim --help)"]);
  });
  it('an unknown flag', async () => {
    const r = await run('check', '--frobnicate');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('--frobnicate');
  });
  it('a bad broker mode', async () => {
    const r = await run('check', '--broker', 'fifo');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('--broker must be one of id-ok, id-409, key, none');
  });
  it('a rule file that does not load', async () => {
    const path = join(tmp, 'broken.ts');
    writeFileSync(path, 'export default {{{;\n');
    const r = await run('check', '--rules', path, '--seeds', '1');
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/does not compile: \S*broken\.ts:1:17: Expected identifier but found "\{"$/);
  });
  it('a rule file that exports something else', async () => {
    const path = join(tmp, 'notrules.ts');
    writeFileSync(path, 'export default { name: "half", summary: "no decisions", schemaKnown: 1 };\n');
    const r = await run('check', '--rules', path, '--seeds', '1');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('is not a rule set: rule set "half" is missing the decision `admit`');
  });
  it('a rule file that does not exist', async () => {
    const r = await run('check', '--rules', './nowhere/rules.ts');
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('does not exist');
  });
});

describe('the README example rule file', () => {
  it('copied to a new path, loads with --rules and is checked', async () => {
    const readme = readFileSync('README.md', 'utf8');
    const block = /<!-- example-rule-file:start -->\n```ts\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const path = join(tmp, 'copied-example.ts');
    writeFileSync(path, block?.[1] ?? '');
    const r = await run('check', '--swarm-only', '--rules', path, '--seeds', '50', '--json', '--out', join(tmp, 'found'));
    expect(r.code).not.toBe(2);
    expect((JSON.parse(r.out) as CheckReport).rules).toBe('refusal-reopens');
  });
});

describe('outbox-sim check', () => {
  it('finds the fresh-cycle phantom delivery, writes the trace and names the replay command', async () => {
    const out = join(tmp, 'fresh');
    const r = await run('check', '--rules', 'fresh-cycle', '--json', '--out', out);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as CheckReport;
    expect(Object.keys(report).sort()).toEqual(expect.arrayContaining(['ok', 'rules', 'oldRules', 'runs', 'steps', 'violations', 'reached', 'layers']));
    const phantom = report.violations.find((v) => v.property === 'no-phantom-delivery');
    expect(phantom).toBeDefined();
    expect(existsSync(phantom?.path ?? '')).toBe(true);
    expect(phantom?.replay).toBe(`npx outbox-sim replay ${phantom?.path}`);
    expect(phantom?.steps).toBeLessThanOrEqual(25);
    // The default check explores its small worlds first: each holds a violation, with a trace that was written.
    expect(report.smallWorlds?.ok).toBe(false);
    for (const w of report.smallWorlds?.worlds ?? []) for (const v of w.violations) expect(existsSync(v.path)).toBe(true);
    // The small worlds and the swarm run in one process: on a loaded 2-core machine that takes more than the default timeout.
  }, 300_000);
  it('passes fail-closed and reaches every fault kind', async () => {
    const r = await run('check', '--swarm-only', '--seeds', '1500', '--json', '--out', join(tmp, 'fc'));
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as CheckReport;
    expect(report.ok).toBe(true);
    expect(report.reached.neverFired).toEqual([]);
    expect(report.layers.postsSent).toBeGreaterThan(0);
    expect(report.layers.recordsRead.corrupt).toBeGreaterThan(0);
  });
  it('runs version-skewed engines with --old-rules and reports the upgrade fault', async () => {
    const r = await run('check', '--swarm-only', '--old-rules', 'fresh-cycle', '--seeds', '400', '--json', '--out', join(tmp, 'skew'));
    expect(r.code).not.toBe(2);
    const report = JSON.parse(r.out) as CheckReport;
    expect(report.oldRules).toBe('fresh-cycle');
    expect(report.reached.faults['fault:upgrade']).toBeGreaterThan(0);
  });
  it('prints a readable summary', async () => {
    const r = await run('check', '--seed', '7', '--out', join(tmp, 'one'));
    expect(r.out).toContain('seed 7 options: engines=');
    expect(r.out).toContain('RESULT:');
    expect(r.out).toContain('Crash points');
    expect(r.out).toContain('Layers:');
  });
  it("prints a seed's options as it runs them: steered where the rule set's probe saw its decisions answer otherwise", async () => {
    // large-body-fresh-cycle reads bodies of 262,144 characters and more (body-probe.ts): seed 342 takes that shape from the probe, not its own draw.
    const r = await run('check', '--rules', 'properties/rule-api/large-body-fresh-cycle.ts', '--seed', '342', '--out', join(tmp, 'steered'));
    expect(r.out).toContain('seed 342 options: engines=');
    expect(r.out).toContain('(large:262144: 262,144 characters each)');
    const plain = await run('check', '--seed', '342', '--out', join(tmp, 'plain'));
    expect(plain.out).toContain('seed 342 options: engines=');
    expect(plain.out).not.toContain('large:');
  });
});
