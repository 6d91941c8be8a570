/**
 * What a `check` worker thread loads before its first seed: the modules its
 * entry reaches through static imports (a dynamic import loads only when
 * taken). A thread running a catalog rule set must not load the rule-file
 * loader and the decisions' contract with its schema library: they were
 * three quarters of the thread's code (check-task.ts says what they cost).
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The inputs reached from `entry` through static imports only. */
async function staticGraph(entry: string): Promise<Set<string>> {
  const out = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', logLevel: 'silent', external: ['esbuild', 'piscina'] });
  const inputs = out.metafile.inputs;
  const seen = new Set<string>();
  const walk = (path: string): void => {
    if (seen.has(path) || inputs[path] === undefined) return;
    seen.add(path);
    for (const i of inputs[path].imports) if (i.kind === 'import-statement') walk(i.path);
  };
  walk(entry);
  return seen;
}

describe('a check worker thread', () => {
  it('loads the seed runner, and neither the rule-file loader nor the decisions\' contract', async () => {
    const graph = await staticGraph('sim/workers/check-worker-entry.ts');
    expect(graph).toContain('sim/check.ts');
    expect(graph).toContain('model/rule-fault.ts');
    for (const left of ['sim/rules-loader.ts', 'sim/rules-bundle.ts', 'model/rule-contract.ts', 'sim/small-worlds-task.ts']) expect(graph).not.toContain(left);
    expect([...graph].filter((p) => p.includes('node_modules/zod/'))).toEqual([]);
  });
  it('shares that with the check command itself: the contract loads with a user\'s rule file only (rules-guard.ts)', async () => {
    const graph = await staticGraph('sim/cli/check-command.ts');
    expect(graph).toContain('sim/rules-loader.ts');
    expect(graph).not.toContain('model/rule-contract.ts');
    expect([...graph].filter((p) => p.includes('node_modules/zod/'))).toEqual([]);
  });
});
