import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['receipts', ...argv], { out: (s) => out.push(s), err: (s) => err.push(s), tty: false });
  return { code, out, err };
}

describe('outbox-sim receipts', () => {
  it('--json prints one object with the conditions table and the scenarios', async () => {
    const r = await run(['--json']);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const j = JSON.parse(r.out[0]) as {
      conditions: { id: string; name: string; result: string; callbacks: number; effects: number }[];
      scenarios: { id: string; name: string; result: string; starts: number; attempts: number }[];
    };
    expect(j.conditions.map((c) => `${c.id} ${c.callbacks}/${c.effects}`)).toEqual([
      'C1 1/1', 'C2 1/1', 'C3 2/2', 'C4 2/2', 'C5 1/1', 'C6 1/1', 'C7 2/2', 'C8 1/1', 'C9 2/1',
    ]);
    expect(j.scenarios.map((s) => `${s.id} ${s.starts}/${s.attempts}`)).toEqual([
      'I0 1/1', 'I1 1/1', 'I2 1/1', 'I3 1/1', 'I4 1/1', 'I5 1/1', 'I6 1/1', 'I7 2/2',
    ]);
    for (const c of j.conditions) expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'name', 'result', 'callbacks', 'effects']));
    for (const s of j.scenarios) expect(Object.keys(s)).toEqual(expect.arrayContaining(['id', 'name', 'result', 'starts', 'attempts']));
  });

  it('prints both tables, the per-layer counts and the deciding mechanism as text', async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    for (const id of ['C1', 'C9', 'I0', 'I7']) expect(text).toContain(`${id}  `);
    expect(text).toContain('2 / 1');
    expect(text).toContain('SDK starts');
    expect(text).toContain('durable session record');
    expect(r.err).toEqual([]);
  });

  it('prints the kernel decisions layer of every row, as --json counts it (docs/receipts.md, \'What each layer counts\')', async () => {
    type Decisions = { replay: number; call: number; stale: number; unavailable: number };
    const j = JSON.parse((await run(['--json'])).out[0]) as { conditions: { layers: { decisions: Decisions } }[]; scenarios: { layers: { decisions: Decisions } }[] };
    const want = [...j.conditions, ...j.scenarios].map(({ layers: { decisions: d } }) => `kernel decisions: replay ${d.replay}, call ${d.call}, stale ${d.stale}, unavailable ${d.unavailable}`);
    const text = (await run([])).out;
    expect(text.map((l) => /kernel decisions: [^;]*/.exec(l)?.[0]).filter((m) => m !== undefined)).toEqual(want);
    // Not all zero: the layer is counted, not just printed.
    expect(want.some((w) => w.includes('stale 1'))).toBe(true);
  });

  it('counts of one take the singular', async () => {
    const text = (await run([])).out.join('\n');
    expect(text).toContain('(2 callbacks, 1 effect in all)');
    expect(text).not.toMatch(/\b1 (effects|callbacks|lines|times)\b/);
  });

  it('rejects an unknown flag with one line and exit code 2', async () => {
    const r = await run(['--bogus']);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain("unknown option '--bogus'");
    expect(r.out).toEqual([]);
  });
});
