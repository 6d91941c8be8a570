/**
 * Every file the project writes is written whole or not at all, by one
 * utility (atomic-write.ts, over npm's `write-file-atomic`): a failed write
 * leaves the old file and no temporary file behind, and says in one line
 * which file could not be written and why.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.ts';
import { UsageError } from './usage-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('writes a new file and replaces an old one whole, leaving no temporary file', () => {
    const path = join(dir, 'a.json');
    writeFileAtomic(path, 'first\n');
    writeFileAtomic(path, 'second\n');
    expect(readFileSync(path, 'utf8')).toBe('second\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('a.json'))).toEqual(['a.json']);
  });

  it('a write that cannot land leaves no temporary file and says so in one line naming the target', () => {
    // A folder where the file should be: the temporary file is written, the rename fails.
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    let thrown: unknown;
    try {
      writeFileAtomic(target, 'new');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    const message = (thrown as Error).message;
    expect(message).toMatch(new RegExp(`^cannot write ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: E[A-Z]+: `));
    expect(message).not.toContain('\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('taken'))).toEqual(['taken']);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
  });

  it('a missing folder is named by the target, not by a temporary name', () => {
    const target = join(dir, 'no-such-folder', 'b.json');
    expect(() => writeFileAtomic(target, 'x')).toThrow(`cannot write ${target}: ENOENT: no such file or directory`);
  });
});
