/** `outbox-sim statechart`: prints or writes the exported statechart; a bad flag is one line, exit 2. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lifecycleMachine } from '../../model/lifecycle.ts';
import { machineConfig, mermaidStatechart } from '../../model/statechart-export.ts';
import { main } from './main.ts';

const dir = mkdtempSync(join(tmpdir(), 'statechart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out: out.join('\n'), err };
}

describe('outbox-sim statechart', () => {
  it('prints the machine config as JSON by default, and the Mermaid diagram with --format mermaid', async () => {
    const json = await run('statechart');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual(machineConfig(lifecycleMachine));
    const md = await run('statechart', '--format', 'mermaid');
    expect(md).toEqual({ code: 0, out: mermaidStatechart(lifecycleMachine), err: [] });
  });
  it('writes --out atomically and says where on stderr', async () => {
    const path = join(dir, 'sub', 'lifecycle.mmd');
    const r = await run('statechart', '--format', 'mermaid', '--out', path);
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(readFileSync(path, 'utf8')).toBe(`${mermaidStatechart(lifecycleMachine)}\n`);
    expect(r.err.join('\n')).toContain(path);
  });
  it('without --format, an --out ending .mmd or .mermaid is written as Mermaid (before: JSON in a .mmd file); any other as JSON', async () => {
    for (const name of ['chart.mmd', 'chart.MERMAID']) {
      expect((await run('statechart', '--out', join(dir, name))).code).toBe(0);
      expect(readFileSync(join(dir, name), 'utf8')).toBe(`${mermaidStatechart(lifecycleMachine)}\n`);
    }
    expect((await run('statechart', '--out', join(dir, 'chart.json'))).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'chart.json'), 'utf8'))).toEqual(machineConfig(lifecycleMachine));
    // --format given wins over the name.
    expect((await run('statechart', '--format', 'json', '--out', join(dir, 'forced.mmd'))).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'forced.mmd'), 'utf8'))).toEqual(machineConfig(lifecycleMachine));
  });
  it('an unknown format is one line on stderr, exit 2', async () => {
    const r = await run('statechart', '--format', 'svg');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['outbox-sim: --format must be one of json, mermaid, got "svg"']);
  });
});
