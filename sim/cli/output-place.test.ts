/**
 * An unwritable output place is one line and exit 2 before any work, for
 * every command that writes: a file where a folder should be, a path under
 * a regular file, a place the process may not write. A place that is fine
 * is left as it was (folders the check made are removed again).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../traces/render/test-traces.ts';
import { UsageError } from '../usage-error.ts';
import { checkOutputFile, checkOutputFolder } from './output-place.ts';
import { runCli as run } from './test-cli.ts';

const dir = tempDir('out-place-');
const aFile = join(dir, 'a-file');
writeFileSync(aFile, 'not a folder\n');
const underFile = join(aFile, 'sub');
afterAll(() => {
  if (readOnly.made) chmodSync(readOnly.path, 0o755);
  removeDir(dir);
});

/**
 * A place this process may not write. Root writes into a chmod'd folder all
 * the same, so as root it is /sys (sysfs refuses new entries even to root).
 */
const readOnly = ((): { path: string; made: boolean } => {
  if (process.getuid?.() === 0) return { path: '/sys/outbox-sim-out', made: false };
  const path = join(dir, 'read-only');
  mkdirSync(path);
  chmodSync(path, 0o555);
  return { path: join(path, 'out'), made: true };
})();


/** Every command that writes, with the flag naming where; shard and trace inputs that do not exist show the check comes first. */
const COMMANDS: { name: string; argv: (place: string) => string[]; flag: string }[] = [
  { name: 'check --out', argv: (p) => ['check', '--seeds', '2000', '--out', p], flag: '--out' },
  { name: 'check --shard-out', argv: (p) => ['check', '--seeds', '2000', '--shard', '1/2', '--shard-out', join(p, 'shard.json')], flag: '--shard-out' },
  { name: 'explore --out', argv: (p) => ['explore', '--out', p], flag: '--out' },
  { name: 'compare --out', argv: (p) => ['compare', 'fail-closed', 'fresh-cycle', '--out', p], flag: '--out' },
  { name: 'diff --out', argv: (p) => ['diff', 'fail-closed', 'fresh-cycle', '--out', p], flag: '--out' },
  { name: 'merge --out', argv: (p) => ['merge', join(dir, 'no-such-shard.json'), '--out', p], flag: '--out' },
  { name: 'show --out', argv: (p) => ['show', join(dir, 'no-such.trace.jsonl'), '--out', join(p, 'trace.html')], flag: '--out' },
];

describe('every command that writes checks where first', () => {
  for (const c of COMMANDS) {
    it(`${c.name}: a file where the folder should be, a path under a file, a read-only place`, async () => {
      // show --out and --shard-out name a file inside the place; the place itself is then the file in the way.
      const isFile = await run(...c.argv(aFile));
      expect(isFile.code).toBe(2);
      expect(isFile.err).toHaveLength(1);
      expect(isFile.err[0]).toMatch(new RegExp(`^outbox-sim: ${c.flag} .*(is a file, not a folder|which is a file); give a folder`));
      expect(isFile.out).toEqual([]);

      const under = await run(...c.argv(underFile));
      expect(under.code).toBe(2);
      expect(under.err).toEqual([expect.stringMatching(new RegExp(`^outbox-sim: ${c.flag} .* lies under .*a-file, which is a file; give a folder`)) as string]);
      expect(under.out).toEqual([]);

      const ro = await run(...c.argv(readOnly.path));
      expect(ro.code).toBe(2);
      expect(ro.err).toHaveLength(1);
      expect(ro.err[0]).toMatch(new RegExp(`^outbox-sim: ${c.flag} .*(permission denied|read-only file system).*; give a place you can write to$`));
      expect(ro.out).toEqual([]);
    });
  }
});

describe('checkOutputFolder / checkOutputFile', () => {
  it('a folder that does not exist yet passes and is not left behind', () => {
    const fresh = join(dir, 'new', 'deeper', 'found');
    checkOutputFolder('--out', fresh);
    expect(existsSync(join(dir, 'new'))).toBe(false);
    checkOutputFile('--out', join(fresh, 'page.html'));
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });
  it('an existing folder passes and keeps only what it held', () => {
    const kept = join(dir, 'kept');
    mkdirSync(kept);
    writeFileSync(join(kept, 'x'), '');
    checkOutputFolder('--out', kept);
    expect(readdirSync(kept)).toEqual(['x']);
  });
  it('a FIFO (or a device, a socket) given as the file to write is refused, and left as it was', () => {
    const fifo = join(dir, 'a-fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(() => checkOutputFile('--out', fifo)).toThrow(
      new UsageError(`--out ${fifo} is not a regular file (a FIFO, a device or a socket), which the write would replace; give a regular file's path, or leave --out out to print to stdout`),
    );
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
  it('a folder given as the file to write, and empty names', () => {
    expect(() => checkOutputFile('--out', dir)).toThrow(new UsageError(`--out ${dir} is a folder; give a file name`));
    expect(() => checkOutputFolder('--out', ' ')).toThrow(UsageError);
    expect(() => checkOutputFile('--out', '')).toThrow(UsageError);
  });
  it('a clean check leaves no empty output folder behind', async () => {
    const out = join(dir, 'clean-run', 'found');
    const r = await run('check', '--seed', '3', '--out', out, '--json');
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'clean-run'))).toBe(false);
  });
});
