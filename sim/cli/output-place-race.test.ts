/**
 * Two checks started together on one output folder (a CI job running two
 * rule sets side by side): each makes the missing folder, probes it and
 * removes it again if it made it, so one check's clean-up can pull the
 * folder from under the other's probe. The other makes it again and
 * probes again; that is not bad input. Here the other check is played by
 * the file system: the first probe write finds its folder just removed.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir } from '../../traces/render/test-traces.ts';

/** Before each of the next `times` writes of a probe file: remove its folder (and, when `parentToo`, the folder above), as the other check's clean-up does. */
const race = { times: 0, parentToo: false, removed: 0, parentOnMkdir: 0 };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    // Before each of the next `parentOnMkdir` makings of a folder: its parent, just made, is removed by the other check.
    mkdirSync: (...args: Parameters<typeof real.mkdirSync>) => {
      const path = String(args[0]);
      if (race.parentOnMkdir > 0 && path.endsWith('/found')) {
        race.parentOnMkdir--;
        real.rmdirSync(path.slice(0, path.lastIndexOf('/')));
        race.removed++;
      }
      return real.mkdirSync(...args);
    },
    writeFileSync: (...args: Parameters<typeof real.writeFileSync>) => {
      const path = String(args[0]);
      if (race.times > 0 && path.includes('.outbox-sim-probe-')) {
        race.times--;
        const folder = path.slice(0, path.lastIndexOf('/'));
        real.rmdirSync(folder);
        if (race.parentToo) real.rmdirSync(folder.slice(0, folder.lastIndexOf('/')));
        race.removed++;
      }
      return real.writeFileSync(...args);
    },
  };
});

const { checkOutputFile, checkOutputFolder } = await import('./output-place.ts');

const dir = tempDir('out-race-');
afterAll(() => removeDir(dir));
beforeEach(() => {
  race.times = 1;
  race.parentToo = false;
  race.removed = 0;
  race.parentOnMkdir = 0;
});

describe('an output folder removed by another check while this one probes it', () => {
  it('is made again and probed again, and left as it was found', () => {
    const out = join(dir, 'a', 'found');
    checkOutputFolder('--out', out);
    expect(race.removed).toBe(1);
    expect(fs.existsSync(join(dir, 'a'))).toBe(false);
  });
  it('with its parent removed too', () => {
    race.parentToo = true;
    const out = join(dir, 'b', 'found');
    checkOutputFile('--out', join(out, 'report.md'));
    expect(race.removed).toBe(1);
    expect(fs.existsSync(join(dir, 'b'))).toBe(false);
  });
  it('with its parent removed while this check makes the folder in it', () => {
    race.times = 0;
    race.parentOnMkdir = 1;
    const out = join(dir, 'd', 'found');
    checkOutputFolder('--out', out);
    expect(race.removed).toBe(1);
    expect(fs.existsSync(join(dir, 'd'))).toBe(false);
  });
  it('a folder that keeps vanishing is bad input after a few tries: one line, nothing left', () => {
    race.times = Number.POSITIVE_INFINITY;
    const out = join(dir, 'c', 'found');
    expect(() => checkOutputFolder('--out', out)).toThrow(`--out ${out} cannot be written: ENOENT; give a place you can write to`);
    expect(race.removed).toBe(5);
    expect(fs.existsSync(join(dir, 'c'))).toBe(false);
  });
});
