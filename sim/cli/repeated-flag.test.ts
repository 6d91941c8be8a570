/** A value flag given twice with two values is refused in one line (repeated-flag.ts); given once, or twice alike, it runs. */
import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out, err };
}

describe('a value flag given twice', () => {
  it('with two values: one line naming both, exit 2, nothing run', async () => {
    const show = await run('statechart', '--format', 'json', '--format=mermaid');
    expect(show.code).toBe(2);
    expect(show.out).toEqual([]);
    expect(show.err).toEqual(['outbox-sim: statechart --format was given twice ("json", then "mermaid"); give it once, with the value you mean']);
  });

  it('names the flag of a command with world settings, before anything is checked', async () => {
    const r = await run('check', '--seeds', '3', '--rules', 'fail-closed', '--quiet', '--rules', 'fresh-cycle');
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain('check --rules was given twice ("fail-closed", then "fresh-cycle")');
  });

  it('twice with the same value runs as once, and a switch (--json) twice is no value flag', async () => {
    const same = await run('statechart', '--format', 'mermaid', '--format', 'mermaid');
    expect(same.code).toBe(0);
    expect(same.out.join('\n')).toContain('stateDiagram-v2');
    const r = await run('rules', '--json', '--json');
    expect(r.code).toBe(0);
  });
});
