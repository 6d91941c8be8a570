/**
 * `outbox-sim explore` in-process: the JSON shape, the shortest
 * counterexample written as a replayable trace (of an `always` property,
 * of an `eventually` one at a quiet state, and of a lasso), and the bounds
 * (states, depth, memory) giving a partial result marked incomplete, exit 3.
 */
import { spawnSync } from 'node:child_process';
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
  proof: boolean;
  checked: string[];
  stoppedBy: string | null;
  stopDetail: string | null;
  states: number;
  transitions: number;
  depth: number;
  statesPerSecond: number;
  violations: { property: string; trace: string; path: string; steps: number }[];
}

describe('outbox-sim explore', () => {
  it('--json: the whole default world of fail-closed, complete, no violation; one state per class of states equal up to renaming pids', async () => {
    const r = await run('explore', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as ExploreJson;
    expect(j).toMatchObject({ ok: true, complete: true, proof: true, stoppedBy: null, states: 6581, transitions: 19115, symmetry: true, symmetryOff: null, violations: [] });
    const whole = JSON.parse((await run('explore', '--json', '--no-symmetry')).out) as ExploreJson;
    expect(whole).toMatchObject({ ok: true, complete: true, states: 17611, transitions: 48482, symmetry: false });
    expect(j.checked).toEqual(['no-phantom-delivery', 'delivered-as-written', 'honest-park', 'parked-stays-parked', 'exclusive-attempt', 'retries-deduped', 'bounded-record', 'no-silent-loss', 'settled-after-healing', 'quiet-after-healing']);
    expect(j.statesPerSecond).toBeGreaterThan(0);
    const text = await run('explore');
    expect(text.out).toContain('checked: no-phantom-delivery, delivered-as-written, honest-park, parked-stays-parked, exclusive-attempt, retries-deduped, bounded-record, no-silent-loss, settled-after-healing, quiet-after-healing');
    expect(text.out).toContain('RESULT: no property violated in the whole bounded space (a proof for this world)');
    expect(text.out).toContain('symmetry: on: one state stored per class of states equal up to renaming engine pids');
    expect((await run('explore', '--no-symmetry')).out).toContain('symmetry: off (--no-symmetry): every state stored');
  });

  it('a flawed rule set: exit 1, the shortest trace written, and it replays', async () => {
    const r = await run('explore', '--rules', 'fresh-cycle', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as ExploreJson;
    // fresh-cycle loses a body silently (16 steps, the last the switch to the liveness phase) before its phantom (18).
    expect(j.violations).toMatchObject([{ property: 'no-silent-loss', steps: 16 }]);
    const replay = await run('replay', j.violations[0].path);
    expect(replay.code).toBe(0);
    expect(replay.out).toContain(`trace ${j.violations[0].trace} replays identically: ${j.violations[0].steps} steps, ending in no-silent-loss`);
  });

  it('--por: the trace is called real, not shortest (docs/explore-reduction.md): here it is longer than the shortest', async () => {
    const plain = await run('explore', '--rules', 'fresh-cycle-after-definite', '--quiet', '--out', tmp);
    const reduced = await run('explore', '--rules', 'fresh-cycle-after-definite', '--por', '--quiet', '--out', tmp);
    expect([plain.code, reduced.code]).toEqual([1, 1]);
    const shortest = /shortest trace \w+: \S+ \((\d+) steps\)/.exec(plain.out);
    const real = /\n {2}trace \w+: \S+ \((\d+) steps; --por: a real trace, not always the shortest\)/.exec(reduced.out);
    expect(reduced.out).not.toContain('shortest trace');
    expect(Number(real?.[1])).toBeGreaterThan(Number(shortest?.[1]));
  });

  it.each([
    ['never-quarantine', 'settled-after-healing', 8],
    ['abandon-at-cap', 'settled-after-healing', 15],
    // 6 steps, the switch, and a cycle of 3 repeated past the liveness phase's 400 steps.
    ['retry-past-cap', 'quiet-after-healing', 409],
  ])('a rule set that leaves a body unsettled (%s): %s with its shortest trace, which replays', async (mutant, property, steps) => {
    const r = await run('explore', '--rules', `./properties/mutants/${mutant}.ts`, '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as ExploreJson;
    expect(j).toMatchObject({ ok: false, proof: false, violations: [{ property, steps }] });
    // Made with a rule file: replay runs it only when given it.
    const replay = await run('replay', j.violations[0].path, '--rules', `./properties/mutants/${mutant}.ts`);
    expect(replay.code).toBe(0);
    expect(replay.out).toContain(`replays identically: ${steps} steps, ending in ${property}`);
  });

  it('--max-states gives a partial result marked complete: false, exit 3', async () => {
    const r = await run('explore', '--engines', '3', '--max-states', '20000', '--json');
    expect(r.code).toBe(3);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, complete: false, proof: false, stoppedBy: 'max-states', states: 20000 });
  });

  it.each([1, 2, 3])('--max-states %i stores exactly that many states (the initial state counts)', async (n) => {
    for (const extra of [[], ['--no-symmetry'], ['--por']]) {
      const r = await run('explore', '--max-states', String(n), '--json', ...extra);
      expect(r.code).toBe(3);
      expect(JSON.parse(r.out)).toMatchObject({ complete: false, stoppedBy: 'max-states', states: n });
    }
  });

  it('--look-ahead: a larger budget answers a lasso of a larger world from its first states; the same violation either way', async () => {
    const lasso = async (...extra: string[]) => {
      const r = await run('explore', '--rules', './properties/mutants/retry-past-cap.ts', '--engines', '3', '--attempts', '3', '--crashes', '3', ...extra, '--json', '--out', tmp);
      expect(r.code).toBe(1);
      const j = JSON.parse(r.out) as ExploreJson;
      return { states: j.states, found: j.violations.map((v) => [v.property, v.steps]) };
    };
    const byDefault = await lasso();
    const ahead = await lasso('--look-ahead', '100000');
    // The default budget runs out in the region of the first states: the lasso is found on the recorded steps, far into the search.
    expect(byDefault.states).toBeGreaterThan(10_000);
    expect(ahead.states).toBeLessThan(10);
    expect(ahead.found).toEqual(byDefault.found);
    expect(ahead.found[0]?.[0]).toBe('quiet-after-healing');
  });

  it('--max-memory stops the search before memory runs out, and says so, exit 3', async () => {
    const r = await run('explore', '--engines', '3', '--max-memory', '1', '--json');
    expect(r.code).toBe(3);
    const j = JSON.parse(r.out) as ExploreJson;
    expect(j.complete).toBe(false);
    // A fixed word a script can match, and the readings in words beside it.
    expect(j.stoppedBy).toBe('memory');
    expect(j.stopDetail).toMatch(/^memory \(resident \d+ MiB, bound --max-memory 1\)$/);
  });

  it('--max-memory is honoured by the resident set: the peak stays under the bound plus a small slack', () => {
    // A whole process, as a user runs it: its own resident set, measured by the kernel's high-water mark (VmHWM).
    const explore = (...args: string[]) => {
      const r = spawnSync(process.execPath, ['bin/outbox-sim.mjs', 'explore', '--json', ...args], { encoding: 'utf8' });
      return { code: r.status, json: JSON.parse(r.stdout) as ExploreJson & { residentBytesPeak: number } };
    };
    const start = explore('--max-states', '1').json.residentBytesPeak;
    // The slack: what the process may take between two looks at the bound (1,000 states, or 1,000 states of a cycle search).
    const SLACK_MIB = 16;
    for (const headroom of [24, 64]) {
      const bound = Math.ceil(start / 2 ** 20) + headroom;
      const r = explore('--engines', '4', '--crashes', '2', '--no-symmetry', '--max-states', '100000000', '--max-memory', String(bound));
      expect(r.code).toBe(3);
      expect(r.json).toMatchObject({ ok: true, complete: false, proof: false });
      expect(r.json.stoppedBy).toBe('memory');
      expect(r.json.stopDetail).toMatch(/^memory \(resident \d+ MiB.*bound --max-memory \d+\)$/);
      expect(r.json.residentBytesPeak / 2 ** 20).toBeLessThan(bound + SLACK_MIB);
    }
  });

  it('the summary a person reads names the bound that stopped a partial search', async () => {
    const r = await run('explore', '--engines', '3', '--max-states', '20000');
    expect(r.code).toBe(3);
    expect(r.out).toContain('WARNING: stopped by --max-states 20000: bound reached, nothing found, not a proof (complete: false, exit 3)');
    expect(r.out).toContain('RESULT: no property violated in the states searched');
  });

  it('--max-depth: every trace up to the bound, said so, exit 3; a violation beyond it is not claimed', async () => {
    const r = await run('explore', '--rules', 'fresh-cycle', '--max-depth', '14', '--out', tmp);
    expect(r.code).toBe(3);
    expect(r.out).toContain('WARNING: stopped by --max-depth 14: every trace of up to 14 steps was searched, none longer: bound reached, nothing found, not a proof (complete: false, exit 3)');
    expect(r.out).toContain('RESULT: no property violated by any trace of up to 14 steps');
    // The silent loss is at a state 15 steps deep: a bound of 15 reaches it.
    const j = JSON.parse((await run('explore', '--rules', 'fresh-cycle', '--max-depth', '15', '--json', '--out', tmp)).out) as ExploreJson;
    expect(j).toMatchObject({ ok: false, violations: [{ property: 'no-silent-loss', steps: 16 }] });
  });

  it('--continue: the search goes on past the first violation to the whole space, and says so', async () => {
    const first = JSON.parse((await run('explore', '--rules', 'fresh-cycle', '--json', '--out', tmp)).out) as ExploreJson;
    expect(first).toMatchObject({ ok: false, complete: false, stoppedBy: 'violation' });
    const r = await run('explore', '--rules', 'fresh-cycle', '--continue', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const all = JSON.parse(r.out) as ExploreJson;
    // 29,215 classes of states (77,537 states with --no-symmetry).
    expect(all).toMatchObject({ ok: false, complete: true, stoppedBy: null, states: 29215 });
    expect(all.states).toBeGreaterThan(first.states);
    expect(all.violations.map((v) => [v.property, v.steps])).toEqual([['no-phantom-delivery', 18], ['no-silent-loss', 16]]);
    // The first violation found is the same shortest trace with or without --continue.
    expect(all.violations[1]).toMatchObject({ property: first.violations[0].property, trace: first.violations[0].trace, steps: 16 });
    const text = await run('explore', '--rules', 'fresh-cycle', '--continue', '--out', tmp);
    expect(text.out).toContain('--continue: the whole bounded space was searched; every property violated in it is listed below');
  });

  it('a rule set the fast path cannot hold is searched on the object system, and the summary says so', async () => {
    const r = await run('explore', '--rules', './properties/mutants/envelope-id-is-key.ts', '--out', tmp);
    expect(r.code).toBe(1);
    expect(r.out).toContain('note: searched on the object system (slower, the same search): the packed fast path cannot hold this world: engine e1 holds an envelope for "a#0" while working on "a"');
    expect(r.out).toContain('RESULT: no-phantom-delivery violated');
    // The body is at the broker, under the id the envelope gave: the detail says where (docs/protocol.md).
    expect(r.out).toContain('but the broker holds nothing under a (it holds A under a#0, the result id the envelope gave; a consumer reads a task\'s result under the task id)');
  });

  it('--help names the properties a search checks and the exit codes, 3 for a bound reached', async () => {
    const r = await run('explore', '--help');
    expect(r.out).toContain('always: no-phantom-delivery, delivered-as-written, honest-park, parked-stays-parked, exclusive-attempt, retries-deduped, bounded-record');
    expect(r.out).toContain('eventually, where the system would be quiet once faults stop: no-silent-loss, settled-after-healing');
    expect(r.out).toContain('quiet-after-healing: no reachable cycle of steps the system takes by itself');
    // The exit codes once, in the block every command's help has (help-contract.ts).
    const flat = r.out.replace(/\s+/g, ' ');
    expect(flat).toContain('Exit codes: 0 no property violated in the whole bounded space (a proof for this world)');
    expect(flat).toContain(' 3 a bound was reached (--max-states, --max-depth or --max-memory), nothing found: not a proof');
    expect(r.out.match(/Exit codes:/g)).toHaveLength(1);
  });

  it('a bad bound is one line and exit 2', async () => {
    const r = await run('explore', '--max-memory', 'lots');
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['outbox-sim: --max-memory must be a whole number from 1 to 1073741824, got "lots"']);
    const d = await run('explore', '--max-depth', '-1');
    expect(d.code).toBe(2);
    expect(d.err).toEqual(['outbox-sim: --max-depth must be a whole number from 0 to 1000000, got "-1"']);
  });
});
