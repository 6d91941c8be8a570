/**
 * The bundled worker: used for catalog plans (a build that fails here would
 * otherwise fall back to tsx unseen), keyed by its inputs' content, and never
 * used for a plan that names a rule file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BOUNDS_DEFAULT } from '../check.ts';
import type { PlanSpec } from './check-task.ts';
import { bundleServes, checkWorkerFile, inputsKey, tsxWorker } from './worker-bundle.ts';

const catalogPlan: PlanSpec = { rules: 'fail-closed', oldRules: 'fresh-cycle', broker: null, bounds: BOUNDS_DEFAULT };
const filePlan: PlanSpec = { ...catalogPlan, oldRules: './properties/mutants/envelope-id-is-key.ts' };

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('worker bundle', () => {
  it('catalog plans run from a bundle in the cache; its manifest key matches its inputs', async () => {
    const file = await checkWorkerFile(catalogPlan);
    expect(file).not.toBe(tsxWorker());
    expect(file).toMatch(/node_modules\/\.cache\/outbox-sim\/check-worker-[0-9a-f]{16}\.mjs$/);
    const manifest = JSON.parse(readFileSync(join(file, '..', 'check-worker.json'), 'utf8')) as { key: string; inputs: string[] };
    expect(manifest.inputs).toContain('sim/workers/check-task.ts');
    expect(manifest.inputs).toContain('model/lifecycle.ts');
    expect(inputsKey(resolve('.'), manifest.inputs)).toBe(manifest.key);
    expect(await checkWorkerFile(catalogPlan)).toBe(file);
  });
  it('a stale manifest (an input changed) rebuilds the bundle and deletes the one it replaces', async () => {
    const file = await checkWorkerFile(catalogPlan);
    const dir = join(file, '..');
    const stale = join(dir, 'check-worker-0000000000000000.mjs');
    writeFileSync(stale, 'export default null;\n');
    const manifest = JSON.parse(readFileSync(join(dir, 'check-worker.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'check-worker.json'), JSON.stringify({ ...manifest, key: '0000000000000000', file: 'check-worker-0000000000000000.mjs' }));
    expect(await checkWorkerFile(catalogPlan)).toBe(file);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(file)).toBe(true);
  });
  it('a plan naming a rule file gets the tsx entry', async () => {
    expect(bundleServes(filePlan)).toBe(false);
    expect(bundleServes({ ...filePlan, rules: './properties/mutants/envelope-id-is-key.ts', oldRules: null })).toBe(false);
    expect(await checkWorkerFile(filePlan)).toBe(tsxWorker());
  });
  it('the key changes with any input, and is null when one is gone', () => {
    writeFileSync(join(tmp, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(tmp, 'b.ts'), 'export const b = 2;\n');
    const before = inputsKey(tmp, ['a.ts', 'b.ts']);
    expect(before).toMatch(/^[0-9a-f]{16}$/);
    expect(inputsKey(tmp, ['a.ts', 'b.ts'])).toBe(before);
    writeFileSync(join(tmp, 'b.ts'), 'export const b = 3;\n');
    expect(inputsKey(tmp, ['a.ts', 'b.ts'])).not.toBe(before);
    expect(inputsKey(tmp, ['a.ts'])).not.toBe(before);
    expect(inputsKey(tmp, ['a.ts', 'gone.ts'])).toBeNull();
  });
});
