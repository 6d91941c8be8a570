/**
 * writeTrace when the folder it made vanishes before the write: another
 * command started on the same new `--out` folder removes it while it is
 * still empty (its output check, cli/output-place.ts). Two commands run
 * side by side on one folder lost the first one's trace that way.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TraceHeader, TraceStep } from './trace-format.ts';

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

const { applyChange, stateChange, traceLines, writeTrace } = await import('./trace-format.ts');
mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'trace-format-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// What is written does not matter here, only where: a small header and no steps.
const header = { rules: 'fail-closed', seed: 1 } as unknown as TraceHeader;
const steps: TraceStep[] = [];

describe('writeTrace', () => {
  it('makes the folder again when it vanished before the write, and writes the trace', () => {
    vanish.times = 2;
    const dir = join(tmp, 'new', 'found');
    const { trace, path } = writeTrace(dir, header, steps);
    expect(readdirSync(dir)).toEqual([`${trace.id}.trace.jsonl`]);
    expect(readFileSync(path, 'utf8')).toBe(`${traceLines(header, steps).join('\n')}\n`);
  });

  it('gives up, with the write\'s own error, when the folder keeps vanishing', () => {
    vanish.times = 10;
    expect(() => writeTrace(join(tmp, 'gone'), header, steps)).toThrow(/cannot write .*ENOENT/);
    vanish.times = 0;
  });
});

describe('applyChange', () => {
  it('takes away again a top-level field the initial world does not hold, which stateChange recorded as null', () => {
    const initial = { clock: 0, records: { a: 1 } };
    const withList = { clock: 1, records: { a: 1 }, inTransit: [{ id: 'a' }] };
    const emptied = { clock: 2, records: { a: 1 } };
    const change = stateChange(withList, emptied);
    expect(change).toEqual({ clock: 2, inTransit: null });
    // Before: the rebuilt state held `inTransit: null`, a field the world never had.
    expect(applyChange(withList, change, initial)).toEqual(emptied);
    expect(Object.keys(applyChange(withList, change, initial))).not.toContain('inTransit');
  });
  it('keeps a null of a field the initial world holds (a field that may be null), and reads as before without an initial world', () => {
    const initial: Record<string, unknown> = { inFlight: null, n: 0 };
    const busy = { inFlight: { id: 'a' }, n: 1 };
    const idle = { inFlight: null, n: 2 };
    expect(applyChange(busy, stateChange(busy, idle), initial)).toEqual(idle);
    expect(applyChange({ x: [1] }, { x: null })).toEqual({ x: null });
  });
});
