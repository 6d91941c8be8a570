/**
 * `compare`: each row belongs to the argument that produced it, whatever the
 * rule sets are called. Two files exporting rule sets of one name, or a
 * user's file reusing a catalog name, used to show the first one's results
 * in both rows: a flawed rule set read "holds" everywhere while the exit
 * code was 1.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { rowLabels, type CompareRow } from './compare-command.ts';

// Rule files sit inside the checkout (under the ignored .tmp-test) and import the model by relative path.
mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'compare-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const catalog = '../../model/catalog';
const sound = join(tmp, 'sound.ts');
writeFileSync(sound, `import failClosed from '${catalog}/fail-closed.ts';\nexport default { ...failClosed };\n`);
// fail-closed with fresh-cycle's admit, under fail-closed's name: it breaks no-phantom-delivery.
const flawed = join(tmp, 'flawed.ts');
writeFileSync(
  flawed,
  `import { extendRules } from '../../model/rules.ts';\nimport failClosed from '${catalog}/fail-closed.ts';\nimport freshCycle from '${catalog}/fresh-cycle.ts';\n` +
    `export default extendRules(failClosed, { name: 'fail-closed', summary: 'fail-closed, but a parked id admits a fresh cycle', admit: freshCycle.admit });\n`,
);

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['compare', ...argv, '--seeds', '60', '--max-states', '20000', '--out', join(tmp, 'found')], { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out, err };
}

describe('compare rows belong to their arguments', () => {
  it('json: two files of one name, each row with its own verdicts and a label naming its file', async () => {
    const r = await run(sound, flawed, '--format', 'json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(1);
    const rows = (JSON.parse(r.out[0]) as { rows: CompareRow[] }).rows;
    const of = (source: string) => rows.filter((x) => x.source === source);
    expect(of(sound).length).toBe(of(flawed).length);
    expect(of(sound).every((x) => x.rules === 'fail-closed' && x.label === `fail-closed (${sound})` && x.verdict === 'holds')).toBe(true);
    expect(of(flawed).every((x) => x.rules === 'fail-closed' && x.label === `fail-closed (${flawed})`)).toBe(true);
    const violated = of(flawed).filter((x) => x.verdict === 'violated');
    expect(violated.length).toBeGreaterThan(0);
    for (const v of violated) expect(v.trace).toMatch(/^[0-9a-f]{12}$/);
  });

  it('text and md: a file reusing a catalog name is labelled with its path, the catalog row with (catalog); the catalog row holds, the file row is violated', async () => {
    const text = await run('fail-closed', flawed);
    expect(text.code).toBe(1);
    const block = (label: string) => {
      const at = text.out.indexOf(label);
      expect(at).toBeGreaterThanOrEqual(0);
      const end = text.out.findIndex((l, i) => i > at && !l.startsWith('  '));
      return text.out.slice(at + 1, end === -1 ? undefined : end).join('\n');
    };
    expect(block('fail-closed (catalog)')).not.toContain('VIOLATED');
    expect(block(`fail-closed (${flawed})`)).toMatch(/VIOLATED: trace [0-9a-f]{12}/);

    const md = await run('fail-closed', flawed, '--format', 'md');
    expect(md.code).toBe(1);
    const catalogRow = md.out.find((l) => l.startsWith('| `fail-closed (catalog)` |')) ?? '';
    const fileRow = md.out.find((l) => l.startsWith(`| \`fail-closed (${flawed})\` |`)) ?? '';
    expect(catalogRow).toContain('holds');
    expect(catalogRow).not.toContain('VIOLATED');
    expect(fileRow).toMatch(/VIOLATED: trace [0-9a-f]{12}/);
    expect(md.out.join('\n')).toContain(`- \`fail-closed (${flawed})\` / `);
    expect(md.out.join('\n')).not.toContain('- `fail-closed (catalog)` / ');
  });
});

describe('compare writes the traces its table names, and no others', () => {
  it('fresh-cycle: a property both the seeds and the search violate leaves one trace in --out, the one its cell shows', async () => {
    // At 200 seeds, the seeds and the search both violate no-silent-loss and no-phantom-delivery (seeds 2 and 16; the
    // search's traces were written too, and named nowhere); the seeds alone violate honest-park (seed 89) and
    // parked-stays-parked (seed 196), since poison joined the swarm's draws.
    const out = join(tmp, 'named');
    const lines: string[] = [];
    const code = await main(['compare', 'fresh-cycle', '--seeds', '200', '--format', 'json', '--out', out], { out: (l) => lines.push(l), err: () => {}, tty: false });
    expect(code).toBe(1);
    const violated = (JSON.parse(lines[0]) as { rows: CompareRow[] }).rows.filter((x) => x.verdict === 'violated');
    expect(violated.map((x) => x.property)).toEqual(['no-phantom-delivery', 'honest-park', 'parked-stays-parked', 'no-silent-loss']);
    expect(readdirSync(out).sort()).toEqual(violated.map((x) => `${String(x.trace)}.trace.jsonl`).sort());
  });
});

describe('rowLabels', () => {
  it('keeps a unique catalog name bare and tells apart everything else', () => {
    expect(rowLabels([{ spec: 'fail-closed', name: 'fail-closed', catalog: true }, { spec: 'fresh-cycle', name: 'fresh-cycle', catalog: true }])).toEqual(['fail-closed', 'fresh-cycle']);
    expect(rowLabels([{ spec: './a.ts', name: 'mine', catalog: false }])).toEqual(['mine']);
    // A file reusing a catalog name says so even alone: a reader would take the bare name for the catalog's.
    expect(rowLabels([{ spec: './a.ts', name: 'fail-closed', catalog: false }])).toEqual(['fail-closed (./a.ts)']);
    expect(rowLabels([{ spec: 'fail-closed', name: 'fail-closed', catalog: true }, { spec: './a.ts', name: 'fail-closed', catalog: false }])).toEqual(['fail-closed (catalog)', 'fail-closed (./a.ts)']);
    expect(rowLabels([{ spec: 'fail-closed', name: 'fail-closed', catalog: true }, { spec: 'fail-closed', name: 'fail-closed', catalog: true }])).toEqual([
      'fail-closed (catalog) #1',
      'fail-closed (catalog) #2',
    ]);
  });
});
