/**
 * The layering of docs/architecture.md, held by the code. Every relative
 * import of every `.ts` and `.mjs` file in the checkout is parsed and placed
 * between two layers; the test fails on an import the table below does not
 * allow, on any cycle between layers, and on `model/` importing anything
 * outside `model/`. The table is the one docs/architecture.md shows (a test
 * below compares them), so the page cannot drift from the rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The layers, lowest first, each with what its code may import. A file
 * belongs to the layer of the longest folder that holds it (so
 * `sim/cli/main.ts` is in `sim/cli/`, not `sim/`).
 */
export const LAYERS: readonly { folder: string; imports: readonly string[] }[] = [
  { folder: 'model/', imports: [] },
  { folder: 'properties/mutants/', imports: ['model/'] },
  { folder: 'properties/rule-api/', imports: ['model/'] },
  { folder: 'sim/', imports: ['model/'] },
  { folder: 'traces/', imports: ['model/', 'sim/'] },
  { folder: 'properties/', imports: ['model/', 'properties/mutants/', 'sim/'] },
  { folder: 'sim/cli/', imports: ['model/', 'properties/mutants/', 'sim/', 'traces/', 'properties/'] },
  { folder: 'sim/api/', imports: ['model/', 'sim/', 'sim/cli/'] },
  { folder: 'bin/', imports: ['sim/cli/'] },
  { folder: 'docs/', imports: [] },
];

/**
 * What a test (or the sample maker `traces/render/test-traces.ts`) may import
 * beyond its layer's list: the mutants and the rule-API test rule sets (rule sets a test runs), and
 * the CLI, to drive the product end to end as a user does. Not in `model/`:
 * its tests stay as pure as its code.
 */
export const TEST_EXTRA: readonly string[] = ['properties/mutants/', 'properties/rule-api/', 'sim/cli/'];

const SKIPPED = new Set(['node_modules', '.git', 'found', 'corpus', 'scratch', '.tmp-test', 'dist']);
const SOURCE = /\.(ts|mjs)$/;
const TEST = /(\.test\.ts|\/test-[^/]*\.ts)$/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(entry.name)) out.push(relative(ROOT, path).split(sep).join('/'));
  }
  return out;
}

/** Every module specifier of a file: static imports and re-exports, side-effect imports, dynamic `import('…')`. */
const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\s;(=])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[\s;])import\s+['"]([^'"]+)['"]/gm;

export interface Edge {
  from: string;
  to: string;
  test: boolean;
}

/** The relative imports of one file's text, as repository paths. */
export function relativeImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec.startsWith('.')) out.push(posix.normalize(posix.join(posix.dirname(file), spec)));
  }
  return out;
}

/** The layer a path belongs to, or null for a file at the root (package.json, the configs). */
export function layerOf(path: string): string | null {
  let best: string | null = null;
  for (const { folder } of LAYERS) if (path.startsWith(folder) && (best === null || folder.length > best.length)) best = folder;
  return best;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  for (const file of sourceFiles(ROOT)) {
    for (const to of relativeImports(file, readFileSync(join(ROOT, file), 'utf8'))) out.push({ from: file, to, test: TEST.test(file) });
  }
  return out;
}

/** Why an import crosses layers wrongly, or null when the table allows it. */
export function forbidden(edge: Edge): string | null {
  const from = layerOf(edge.from);
  const to = layerOf(edge.to);
  if (from === 'model/' && to !== 'model/') return `model/ is pure: ${edge.from} imports ${edge.to}, outside model/`;
  if (from === null || to === null || from === to) return null;
  const allowed = LAYERS.find((l) => l.folder === from)?.imports ?? [];
  if (allowed.includes(to) || (edge.test && TEST_EXTRA.includes(to))) return null;
  return `${edge.from} (${from}) imports ${edge.to} (${to}); ${from} may import ${allowed.join(', ') || 'nothing outside itself'}`;
}

/** The groups of layers that reach each other through their code's imports (Tarjan's strongly connected components). */
export function layerCycles(list: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of list) {
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (e.test || a === null || b === null || a === b) continue;
    next.set(a, (next.get(a) ?? new Set()).add(b));
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('the layering holds', () => {
  const all = edges();

  it('parses the imports of the checkout (the scan sees the known ones)', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all).toContainEqual({ from: 'sim/cli/rule-fault.ts', to: 'sim/usage-error.ts', test: false });
    expect(all).toContainEqual({ from: 'bin/outbox-sim.mjs', to: 'sim/cli/main.ts', test: false });
  });

  it('every import goes where the table allows', () => {
    expect(all.map(forbidden).filter((p) => p !== null)).toEqual([]);
  });

  it('no layer imports another that imports it back', () => {
    expect(layerCycles(all)).toEqual([]);
  });
});

describe('the checks catch what they are for', () => {
  it('model/ importing sim/, even in a test, is refused', () => {
    expect(forbidden({ from: 'model/lifecycle.test.ts', to: 'sim/outbox/stepper.ts', test: true })).toMatch(/^model\/ is pure/);
    expect(forbidden({ from: 'model/lifecycle.ts', to: 'model/catalog/fail-closed.ts', test: false })).toBeNull();
  });

  it('the loops this layering removed are refused', () => {
    // The world model importing its properties from properties/, which imported the world back.
    expect(forbidden({ from: 'sim/outbox/outbox-system.ts', to: 'properties/outbox.ts', test: false })).not.toBeNull();
    // traces/ importing the CLI, which imports traces/.
    expect(forbidden({ from: 'traces/render/text.ts', to: 'sim/cli/terminal-text.ts', test: false })).not.toBeNull();
    expect(forbidden({ from: 'sim/outbox/record-trace.ts', to: 'traces/format.ts', test: false })).not.toBeNull();
    expect(
      layerCycles([
        { from: 'sim/outbox/outbox-system.ts', to: 'properties/outbox.ts', test: false },
        { from: 'properties/outbox.ts', to: 'sim/outbox/world.ts', test: false },
      ]),
    ).toEqual([['properties/', 'sim/']]);
  });

  it('reads every kind of import', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c/c.ts';",
      "import './side.ts';",
      "const d = await import('../d.ts');",
      "import { e } from 'node:fs';",
    ].join('\n');
    expect(relativeImports('sim/x/y.ts', text)).toEqual(['sim/x/a.ts', 'sim/b.ts', 'sim/x/c/c.ts', 'sim/x/side.ts', 'sim/d.ts']);
  });
});

describe('docs/architecture.md shows this table', () => {
  it('one row per layer, with the same imports', () => {
    const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const rows = [...page.matchAll(/^\| `([a-z/-]+\/)` \| ([^|]*) \|/gm)].map((m) => ({
      folder: m[1],
      imports: [...m[2].matchAll(/`([a-z/]+\/)`/g)].map((i) => i[1]),
    }));
    expect(rows).toEqual(LAYERS.map((l) => ({ folder: l.folder, imports: [...l.imports] })));
  });
});
