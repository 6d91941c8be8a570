/**
 * A shard file is sealed with a checksum of its content: `merge` refuses an
 * edited or corrupt one in one line (exit 2) instead of merging it into
 * wrong totals, and merges intact ones into the report of the unsharded run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from './check-report.ts';
import { runCli } from './cli/test-cli.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'shard-file-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const RUN = ['--swarm-only', '--rules', 'fresh-cycle', '--seeds', '300'];
const shard = (i: number) => join(tmp, `s${i}.json`);
let whole: { code: number; report: CheckReport };
beforeAll(async () => {
  const r = await runCli('check', ...RUN, '--json', '--out', join(tmp, 'whole'));
  whole = { code: r.code, report: JSON.parse(r.out.join('\n')) as CheckReport };
  for (const i of [1, 2]) await runCli('check', ...RUN, '--shard', `${i}/2`, '--shard-out', shard(i), '--json', '--out', join(tmp, `part${i}`));
});

/** `merge` of the files, into a folder of its own. */
function merge(...files: string[]) {
  return runCli('merge', ...files, '--rules', 'fresh-cycle', '--json', '--out', join(tmp, 'merged'));
}

/** A copy of shard 1 with its text changed by `edit`. */
function edited(name: string, edit: (text: string) => string): string {
  const path = join(tmp, name);
  writeFileSync(path, edit(readFileSync(shard(1), 'utf8')));
  return path;
}

describe('shard file integrity', () => {
  it('intact shards merge into the report of the unsharded run', async () => {
    const merged = await merge(shard(1), shard(2));
    expect(merged.err).toEqual([]);
    expect(merged.code).toBe(whole.code);
    const report = JSON.parse(merged.out.join('\n')) as CheckReport;
    const comparable = (r: CheckReport) => ({ ...r, seconds: 0, smallWorldsNotRun: undefined, violations: r.violations.map((v) => ({ ...v, path: '', replay: '' })) });
    expect(comparable(report)).toEqual(comparable(whole.report));
    expect(report.runs).toBe(300);
  });

  it('an edited count is refused in one line naming the file (exit 2), not merged into wrong totals', async () => {
    const alt = edited('alt.json', (t) => t.replace(/"runs":1[0-9]*/g, '"runs":3'));
    expect(readFileSync(alt, 'utf8')).not.toBe(readFileSync(shard(1), 'utf8'));
    const r = await merge(alt, shard(2));
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([`outbox-sim: shard file ${alt} does not match its checksum: edited or corrupt; re-run that shard`]);
  });

  it('so is a shard whose checksum was removed, or changed', async () => {
    const unsealed = edited('unsealed.json', (t) => t.replace(/,"sum":"[0-9a-f]+"/, ''));
    const resealed = edited('resealed.json', (t) => t.replace(/"sum":"[0-9a-f]/, (m) => `${m.slice(0, -1)}${m.endsWith('0') ? '1' : '0'}`));
    for (const path of [unsealed, resealed]) {
      const r = await merge(path, shard(2));
      expect(r.code).toBe(2);
      expect(r.err).toEqual([`outbox-sim: shard file ${path} does not match its checksum: edited or corrupt; re-run that shard`]);
    }
  });

  it('a shard file of version 1 (no checksum) is refused, saying to re-run it', async () => {
    const old = edited('v1.json', (t) => {
      const { sum: _sum, ...content } = JSON.parse(t) as Record<string, unknown>;
      return JSON.stringify({ ...content, version: 1 });
    });
    const r = await merge(old, shard(2));
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`outbox-sim: ${old} is shard format version 1; this outbox-sim reads version 2: re-run that shard with it`]);
  });
});

describe('shards that do not make one run', () => {
  it('a shard of another run is named by its file; one shard missing is said in the singular', async () => {
    const other = join(tmp, 'other-2.json');
    await runCli('check', '--swarm-only', '--rules', 'fresh-cycle', '--seeds', '30', '--shard', '2/2', '--shard-out', other, '--json', '--out', join(tmp, 'other'));
    const r = await merge(shard(1), other);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([`outbox-sim: shard file ${other} (shard 2/2) comes from a different run than ${shard(1)} (rules, seeds or options differ): give the shards of one run`]);
    const missing = await merge(shard(1));
    expect(missing.err).toEqual(['outbox-sim: shard 2/2 is missing']);
  });
});
