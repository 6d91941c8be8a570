/**
 * A shard file is data: `merge` never loads a rule file a shard names; the
 * user passes it with --rules, and its content hash must be the recorded one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli as run } from './test-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-merge-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));


describe('merge of shards run with a rule file', () => {
  const rules = join(tmp, 'mine.ts');
  const marker = join(tmp, 'ran-by-merge');
  writeFileSync(rules, `import { failClosed, extendRules } from 'outbox-sim';\nexport default extendRules(failClosed, { name: 'mine', summary: 'a copy' });\n`);
  const shard = (i: number) => join(tmp, `s${i}.json`);

  it('needs the file passed, refuses another content, and merges with it', async () => {
    for (const i of [1, 2]) expect((await run('check', '--rules', rules, '--seeds', '40', '--shard', `${i}/2`, '--shard-out', shard(i), '--json', '--out', join(tmp, 'found'))).code).toBe(0);
    // A file that would leave a marker if anything ran it, at the path the shards recorded.
    const recorded = readFileSync(rules, 'utf8');
    writeFileSync(rules, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\n${recorded}`);
    const without = await run('merge', shard(1), shard(2), '--json');
    expect(without.code).toBe(2);
    expect(without.err).toHaveLength(1);
    expect(without.err[0]).toMatch(/never loads code by itself: pass that file with --rules/);
    // Each refusal speaks of the shards and of merge's own flags, never of a trace or of replay's --under.
    const catalog = await run('merge', shard(1), shard(2), '--rules', 'fail-closed', '--json');
    const missing = await run('merge', shard(1), shard(2), '--rules', join(tmp, 'nope.ts'), '--json');
    const changed = await run('merge', shard(1), shard(2), '--rules', rules, '--json');
    expect(changed.code).toBe(2);
    expect(changed.err[0]).toMatch(/hash/);
    for (const [r, says] of [[without, 'the shards were made with the rule file'], [catalog, 'fail-closed is a catalog rule set, but the shards were made with'], [missing, 'does not exist; the shards were made with'], [changed, 'is not the one the shards were made with']] as const) {
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toContain(says);
      expect(r.err[0]).not.toMatch(/trace|--under/);
    }
    expect(existsSync(marker)).toBe(false);
    writeFileSync(rules, recorded);
    const merged = await run('merge', shard(1), shard(2), '--rules', rules, '--json', '--out', join(tmp, 'merged'));
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.out.join('\n')).runs).toBe(40);
    // The shards ran no small worlds (nor this rule set's upgrade from fail-closed): the text says so, with the command that runs them.
    const text = await run('merge', shard(1), shard(2), '--rules', rules, '--quiet', '--out', join(tmp, 'merged'));
    expect(text.out).toContain(`  shards run the swarm's seeds only, so the result above is theirs. Run the small worlds once beside the shards: npx outbox-sim check --rules ${rules} --small-worlds-only`);
  });
});

describe('merge of what is not a shard file', () => {
  it('a folder is named as a folder, not as a corrupt shard', async () => {
    const r = await run('merge', tmp);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`outbox-sim: ${tmp} is a folder, not a shard file; give the files each \`check --shard I/N --shard-out FILE\` wrote`]);
  });
  it('shards made under a catalog rule set refuse another --rules in merge\'s words', async () => {
    const shard = join(tmp, 'catalog-1.json');
    expect((await run('check', '--seeds', '10', '--swarm-only', '--shard', '1/1', '--shard-out', shard, '--json', '--out', join(tmp, 'found'))).code).toBe(0);
    const r = await run('merge', shard, '--rules', 'fresh-cycle', '--json');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['outbox-sim: the shards were made under the catalog rule set fail-closed, not a rule file; leave --rules out (it supplies a rule file the shards were made with)']);
    // Nor is an --old-rules dropped without a word: these shards ran no older engines.
    const old = await run('merge', shard, '--old-rules', 'fresh-cycle', '--json');
    expect(old.code).toBe(2);
    expect(old.err).toEqual(['outbox-sim: --old-rules fresh-cycle: these shards ran no older engines (check without --old-rules); leave it out']);
  });
});
