/**
 * A rule file saved while a check runs: every piece of the check (the
 * command's own later seed chunks, worker threads' seeds and worlds) runs
 * the code the command loaded, never the file as it is now. Before pins,
 * each piece loaded the file again by its path, so a check mixed two
 * versions under the first one's hash (a flawed save found violations the
 * recorded file does not have; a clean save hid the first one's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BOUNDS_DEFAULT } from './check.ts';
import { loadPinned, loadRules, pinsOf } from './rules-loader.ts';
import { usageError } from './test-usage-error.ts';
import { runTask, type PlanSpec } from './workers/check-task.ts';
import { checkThreadPool } from './workers/thread-pool.ts';
import type { ShardResult } from './check.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-pin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLEAN = `import { extendRules, failClosed } from 'outbox-sim';
export default extendRules(failClosed, { name: 'pinned-rules', summary: 'fail-closed by another name' });
`;
/** A flaw any run with a parked file shows at once: a parked file archived (as delivered). */
const FLAWED = `import { extendRules, failClosed } from 'outbox-sim';
export default extendRules(failClosed, {
  name: 'pinned-rules-saved',
  summary: 'archives parked files',
  dispose(view) {
    const d = failClosed.dispose(view);
    return d.kind === 'quarantine' ? { kind: 'archive', file: d.file } : d;
  },
});
`;

/** A rule file written clean, loaded (as a command loads it), then saved flawed. */
async function savedAfterLoad(name: string): Promise<{ path: string; plan: PlanSpec }> {
  const path = join(dir, name);
  writeFileSync(path, CLEAN);
  const loaded = await loadRules(path);
  writeFileSync(path, FLAWED);
  return { path, plan: { rules: path, oldRules: null, pins: pinsOf([[path, loaded]]), broker: null, bounds: BOUNDS_DEFAULT } };
}

/** Seeds [from, to) of `plan` run on a worker thread of a pool of one. */
async function onThread(plan: PlanSpec, from: number, to: number): Promise<ShardResult> {
  const pool = await checkThreadPool(1, plan);
  try {
    return (await pool.run({ plan, from, to })) as ShardResult;
  } finally {
    await pool.destroy();
  }
}

describe('a rule file saved while a check runs', () => {
  it('is not what a later piece of the check runs: it runs the code the command loaded', async () => {
    const { plan } = await savedAfterLoad('later-piece.ts');
    // The flawed save violates within these seeds (checked below, unpinned).
    const pinned = await runTask({ plan, from: 1, to: 201 });
    expect(Object.keys(pinned.first)).toEqual([]);
    const { pins: _pins, ...unpinned } = plan;
    const fresh = await runTask({ plan: unpinned, from: 1, to: 201 });
    expect(Object.keys(fresh.first).length).toBeGreaterThan(0);
  });

  it("is not what a worker thread runs: the thread imports the command's bundle", async () => {
    const { plan } = await savedAfterLoad('thread.ts');
    const r = await onThread(plan, 1, 201);
    expect(r.runs).toBe(200);
    expect(Object.keys(r.first)).toEqual([]);
  }, 60_000);

  it('is refused with one line when the pinned bundle is gone and the file changed', async () => {
    const { path, plan } = await savedAfterLoad('gone.ts');
    const pin = plan.pins?.[path];
    if (pin === undefined) throw new Error('no pin');
    // As a thread that never loaded it finds a pinned bundle another process's cache pruned.
    const pruned = pin.bundle.replace(/rules-[0-9a-f]+\.mjs$/, 'rules-00000000000000000000.mjs');
    const message = await usageError(loadPinned(path, { [path]: { hash: pin.hash, bundle: pruned } }));
    expect(message).toMatch(/^rule file .*gone\.ts changed while this command ran \(content hash [0-9a-f]{16} when it started; its content hash is [0-9a-f]{16} now\): run the command again$/);
  });

  it('is bundled again by a thread when the pinned bundle is gone and the file is unchanged', async () => {
    const path = join(dir, 'unchanged.ts');
    writeFileSync(path, CLEAN);
    const loaded = await loadRules(path);
    if (loaded.pin === undefined) throw new Error('no pin');
    rmSync(fileURLToPath(loaded.pin.bundle));
    const r = await onThread({ rules: path, oldRules: null, pins: pinsOf([[path, loaded]]), broker: null, bounds: BOUNDS_DEFAULT }, 1, 201);
    expect(r.runs).toBe(200);
  }, 60_000);
});
