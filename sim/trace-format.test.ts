/**
 * writeTrace when the folder it made vanishes before the write: another
 * command started on the same new `--out` folder removes it while it is
 * still empty (its output check, cli/output-place.ts). Two commands run
 * side by side on one folder lost the first one's trace that way.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readTrace } from '../traces/read.ts';

const vanish = vi.hoisted(() => ({ times: 0 }));
vi.mock('./atomic-write.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./atomic-write.ts')>();
  return {
    ...real,
    writeFileAtomic: (path: string, content: string) => {
      if (vanish.times > 0) {
        vanish.times--;
        // The other command's check removes the empty folder just before this write.
        rmdirSync(dirname(path));
      }
      real.writeFileAtomic(path, content);
    },
  };
});

const { writeTrace } = await import('./trace-format.ts');
mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'trace-format-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const corpus = readTrace(join('traces', 'corpus', readdirSync(join('traces', 'corpus')).filter((f) => f.endsWith('.trace.jsonl'))[0]));

describe('writeTrace', () => {
  it('makes the folder again when it vanished before the write, and writes the trace', () => {
    vanish.times = 2;
    const dir = join(tmp, 'new', 'found');
    const { path } = writeTrace(dir, corpus.header, corpus.steps);
    expect(readdirSync(dir)).toEqual([`${corpus.id}.trace.jsonl`]);
    expect(readTrace(path).steps).toEqual(corpus.steps);
  });

  it('gives up, with the write\'s own error, when the folder keeps vanishing', () => {
    vanish.times = 10;
    expect(() => writeTrace(join(tmp, 'gone'), corpus.header, corpus.steps)).toThrow(/cannot write .*ENOENT/);
    vanish.times = 0;
  });
});
