/**
 * `outbox-sim explore` in-process: the JSON shape, the shortest
 * counterexample written as a replayable trace, and the bounds (states,
 * memory) giving a partial result marked incomplete.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l: string) => out.push(l), err: (l: string) => err.push(l), tty: false });
  return { code, out: out.join('\n'), err };
}

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'explore-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface ExploreJson {
  ok: boolean;
  complete: boolean;
  stoppedBy: string | null;
  states: number;
  transitions: number;
  depth: number;
  statesPerSecond: number;
  violations: { property: string; trace: string; path: string; steps: number }[];
}

describe('outbox-sim explore', () => {
  it('--json: the whole default world of fail-closed, complete, no violation', async () => {
    const r = await run('explore', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as ExploreJson;
    expect(j).toMatchObject({ ok: true, complete: true, stoppedBy: null, states: 19063, transitions: 52530, violations: [] });
    expect(j.statesPerSecond).toBeGreaterThan(0);
  });

  it('a flawed rule set: exit 1, the shortest trace written, and it replays', async () => {
    const r = await run('explore', '--rules', 'fresh-cycle', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as ExploreJson;
    expect(j.violations[0]).toMatchObject({ property: 'no-phantom-delivery' });
    const replay = await run('replay', j.violations[0].path);
    expect(replay.code).toBe(0);
    expect(replay.out).toContain(`trace ${j.violations[0].trace} replays identically: ${j.violations[0].steps} steps, ending in no-phantom-delivery`);
  });

  it('--max-states gives a partial result marked complete: false', async () => {
    const r = await run('explore', '--engines', '3', '--max-states', '20000', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, complete: false, stoppedBy: 'max-states', states: 20000 });
  });

  it('--max-memory stops the search before memory runs out, and says so', async () => {
    const r = await run('explore', '--engines', '3', '--max-memory', '1', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as ExploreJson;
    expect(j.complete).toBe(false);
    expect(j.stoppedBy).toMatch(/^memory \(resident \d+ MiB, bound --max-memory 1\)$/);
  });

  it('the summary a person reads names the bound that stopped a partial search', async () => {
    const r = await run('explore', '--engines', '3', '--max-states', '20000');
    expect(r.code).toBe(0);
    expect(r.out).toContain('WARNING: stopped by --max-states 20000: a partial search, not a proof (complete: false)');
  });

  it('--max-depth: every trace up to the bound, said so; a violation beyond it is not claimed', async () => {
    const r = await run('explore', '--rules', 'fresh-cycle', '--max-depth', '17', '--out', tmp);
    expect(r.code).toBe(0);
    expect(r.out).toContain('WARNING: stopped by --max-depth 17: every trace of up to 17 steps was searched, none longer: a bounded search, not a proof for the whole space (complete: false)');
    expect(r.out).toContain('RESULT: no always-property violated by any trace of up to 17 steps');
    const j = JSON.parse((await run('explore', '--rules', 'fresh-cycle', '--max-depth', '18', '--json', '--out', tmp)).out) as ExploreJson;
    expect(j).toMatchObject({ ok: false, violations: [{ property: 'no-phantom-delivery', steps: 18 }] });
  });

  it('--continue: the search goes on past the first violation to the whole space, and says so', async () => {
    const first = JSON.parse((await run('explore', '--rules', 'fresh-cycle', '--json', '--out', tmp)).out) as ExploreJson;
    expect(first).toMatchObject({ ok: false, complete: false, stoppedBy: 'violation' });
    const r = await run('explore', '--rules', 'fresh-cycle', '--continue', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const all = JSON.parse(r.out) as ExploreJson;
    expect(all).toMatchObject({ ok: false, complete: true, stoppedBy: null, states: 91444 });
    expect(all.states).toBeGreaterThan(first.states);
    // The first violation found is the same shortest trace with or without --continue.
    expect(all.violations[0]).toMatchObject({ property: first.violations[0].property, trace: first.violations[0].trace, steps: 18 });
    const text = await run('explore', '--rules', 'fresh-cycle', '--continue', '--out', tmp);
    expect(text.out).toContain('--continue: the whole bounded space was searched; every always-property violated in it is listed below');
  });

  it('a rule set the fast path cannot hold is searched on the object model, and the summary says so', async () => {
    const r = await run('explore', '--rules', './properties/mutants/envelope-id-is-key.ts', '--out', tmp);
    expect(r.code).toBe(1);
    expect(r.out).toContain('note: searched on the object model (slower, the same search): the packed fast path cannot hold this world: engine e1 holds an envelope for "a#0" while working on "a"');
    expect(r.out).toContain('RESULT: no-phantom-delivery violated');
  });

  it('a bad bound is one line and exit 2', async () => {
    const r = await run('explore', '--max-memory', 'lots');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['outbox-sim: --max-memory must be a whole number, got "lots"']);
    const d = await run('explore', '--max-depth', '-1');
    expect(d.code).toBe(2);
    expect(d.err).toEqual(['outbox-sim: --max-depth must be a whole number, got "-1"']);
  });
});
