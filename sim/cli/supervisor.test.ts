/**
 * The supervisor: a rule file whose decision (or import) never returns ends
 * the command within its budget and a few seconds, with exit 2 and one line
 * naming it; a signal reaches the command thread through the shared cell,
 * even while that thread never yields, and the command's own exit code is
 * kept; a thread that does not stop is terminated after the grace period.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decisionTimeoutSeconds, needsSupervisor } from './supervisor.ts';
import { endedLine, hungLine } from '../watch-lines.ts';
import { attachWatch, newWatchBuffer, POSITION_NONE, POSITION_RUN, POSITION_SEARCH, readWatch, WATCH_IDLE, WATCH_IMPORT, watchAt, watchingIn } from '../watch.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'supervisor-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

function node(args: string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
  });
}

/** The relay fixture in `mode`, its process handed to `signal` once, when it first prints that it is ready. */
function relayed(mode: string, signal: (child: ReturnType<typeof spawn>) => void): Promise<Run> {
  let sent = false;
  return node(['sim/cli/supervisor-fixtures/relay-parent.mjs', mode], (out, child) => {
    if (!sent && out.includes('ready')) {
      sent = true;
      signal(child);
    }
  });
}

describe('supervisor', () => {
  it('a decision that never returns: exit 2 within the budget and a few seconds, one line naming it, the seed and the step', { timeout: 60_000 }, async () => {
    const r = await node(['bin/outbox-sim.mjs', 'check', '--swarm-only', '--rules', 'properties/broken-rules/classify-loops.ts', '--seeds', '5', '--decision-timeout', '1', '--out', tmp]);
    expect(r.code).toBe(2);
    expect(r.seconds).toBeLessThan(1 + 15);
    // In the probe of the file before the check's own seeds, at its first seed that POSTs: named as the probe's
    // (before, 'at seed 2, step 9' read as the check's own seed, also under --seed 7 or --small-worlds-only).
    expect(r.stderr).toMatch(/^outbox-sim: rule set "classify-loops" \(\.\/properties\/broken-rules\/classify-loops\.ts\): classify did not return within 1 s \(--decision-timeout\); in the probe for kept state before the command's own run \(the default swarm's seeds 1-17\), at seed \d+, step \d+\n$/);
    // What the command wrote before the hang reached the terminal (a worker's own stream would have held it).
    expect(r.stdout).toMatch(/^outbox-sim check: rules classify-loops, and the upgrade from fail-closed \(which it extends\) in one seed in four; [^\n]+\n {2}swarm: [^\n]+\n$/);
  });
  it('a rule file that never finishes loading: exit 2 naming the file and its import', { timeout: 60_000 }, async () => {
    const r = await node(['bin/outbox-sim.mjs', 'explore', '--rules', 'properties/broken-rules/import-loops.ts', '--decision-timeout', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^outbox-sim: rule file properties\/broken-rules\/import-loops\.ts: its import did not finish within 1 s \(--decision-timeout\)[^\n]*\n$/);
  });
  it('relays SIGTERM to a command thread that never yields; the command exits with its own code', { timeout: 60_000 }, async () => {
    const r = await relayed('answer', (child) => child.kill('SIGTERM'));
    expect(r.stdout).toBe('ready\nsaw SIGTERM\n');
    // The command's own code (143 - 100 here), not one the supervisor made up.
    expect(r.code).toBe(43);
  });
  it('takes one signal delivered twice at once (timeout signals the command and its group) as one request: the command still ends with its own code', { timeout: 60_000 }, async () => {
    const r = await relayed('answer', (child) => {
      child.kill('SIGINT');
      child.kill('SIGINT');
    });
    expect(r.stdout).toBe('ready\nsaw SIGINT\n');
    expect(r.code).toBe(30);
    expect(r.stderr).toBe('');
  });
  it('terminates a command thread that does not stop within the grace period: 130 for SIGINT', { timeout: 60_000 }, async () => {
    const r = await relayed('ignore', (child) => child.kill('SIGINT'));
    expect(r.stdout).toBe('ready\n');
    expect(r.code).toBe(130);
    expect(r.seconds).toBeLessThan(15);
    // One line says why there is no summary.
    expect(r.stderr).toMatch(/^outbox-sim: Ctrl-C: the command did not stop within \d+ s of the signal .* ended with no summary\n$/);
  });
});

describe('supervisor parts', () => {
  it('supervises a command when argv names a rule file', () => {
    expect(needsSupervisor(['check', '--rules', './my-rules.ts'])).toBe(true);
    expect(needsSupervisor(['compare', 'fail-closed', 'x/rules.mts'])).toBe(true);
    // Every extension the loader takes for a rule file: a .tsx or .jsx one runs user code too.
    expect(needsSupervisor(['check', '--rules', './my-rules.tsx'])).toBe(true);
    expect(needsSupervisor(['check', '--rules=./my-rules.jsx'])).toBe(true);
    expect(needsSupervisor(['check', '--rules', 'fresh-cycle'])).toBe(false);
    expect(needsSupervisor(['replay', 'traces/found/abc.trace.jsonl'])).toBe(false);
  });
  it('parses --decision-timeout', () => {
    expect(decisionTimeoutSeconds(undefined)).toBe(5);
    expect(decisionTimeoutSeconds('0.5')).toBe(0.5);
    expect(() => decisionTimeoutSeconds('0')).toThrow(/--decision-timeout/);
    expect(() => decisionTimeoutSeconds('1s')).toThrow(/--decision-timeout/);
  });
  it('names a hung decision or import', () => {
    expect(hungLine({ slot: 0, seq: 3, what: 5, label: '"r" (./r.ts)', mode: POSITION_RUN, a: 7, b: 12, place: null }, 5)).toBe('rule set "r" (./r.ts): classify did not return within 5 s (--decision-timeout); at seed 7, step 12');
    expect(hungLine({ slot: 0, seq: 3, what: 5, label: 'r', mode: POSITION_SEARCH, a: 4, b: 0, place: 'small world "default"' }, 5)).toBe('rule set r: classify did not return within 5 s (--decision-timeout); in small world "default", at search depth 4');
    expect(hungLine({ slot: 0, seq: 3, what: 5, label: 'r', mode: POSITION_NONE, a: 0, b: 0, place: 'small world "default"' }, 5)).toBe('rule set r: classify did not return within 5 s (--decision-timeout); in small world "default"');
    // No position and no part named: said so, not a place made up.
    expect(hungLine({ slot: 0, seq: 3, what: 5, label: 'r', mode: POSITION_NONE, a: 0, b: 0, place: null }, 5)).toBe('rule set r: classify did not return within 5 s (--decision-timeout); where in the command is not known');
    expect(hungLine({ slot: 1, seq: 1, what: WATCH_IMPORT, label: './r.ts', mode: 0, a: 0, b: 0, place: null }, 2)).toMatch(/^rule file \.\/r\.ts: its import did not finish within 2 s/);
  });
});

describe('the watch cell names the part of the command a thread is in', () => {
  it('inside watchingIn: its place, with the position set there; after it: neither, not a position left by that part', () => {
    const sab = newWatchBuffer();
    attachWatch(sab);
    watchAt(POSITION_RUN, 1, 3);
    const inside = watchingIn('small world "x"', () => {
      expect(readWatch(sab)[0]).toMatchObject({ place: 'small world "x"', mode: POSITION_NONE });
      watchAt(POSITION_SEARCH, 5);
      return readWatch(sab)[0];
    });
    expect(inside).toMatchObject({ place: 'small world "x"', mode: POSITION_SEARCH, a: 5 });
    expect(readWatch(sab)[0]).toMatchObject({ place: null, mode: POSITION_NONE });
    expect(() => watchingIn('the probe', () => { throw new Error('broke'); })).toThrow('broke');
    expect(readWatch(sab)[0]).toMatchObject({ place: null, mode: POSITION_NONE });
  });
});

describe('a command thread that ended before its result', () => {
  const idle = { slot: 0, seq: 1, what: WATCH_IDLE, label: null, mode: POSITION_NONE, a: 0, b: 0, place: null };
  it('names the import that never finished', () => {
    expect(endedLine([idle, { slot: 1, seq: 1, what: WATCH_IMPORT, label: './r.ts', mode: POSITION_NONE, a: 0, b: 0, place: null }], 13)).toMatch(/^rule file \.\/r\.ts: its import never finished: /);
  });
  it('names the decision that ended it, and where the run or search was', () => {
    expect(endedLine([{ slot: 0, seq: 4, what: 3, label: '"x" (./x.ts)', mode: POSITION_RUN, a: 7, b: 3, place: null }], 0)).toBe(
      'rule set "x" (./x.ts): preSend ended the command from inside the call (process.exit?); at seed 7, step 3: nothing was checked; a decision must return its answer',
    );
    expect(endedLine([idle, { slot: 1, seq: 2, what: 4, label: 'y', mode: POSITION_SEARCH, a: 9, b: 0, place: null }], 0)).toMatch(/^rule set y: envelope ended the command .*; at search depth 9: /);
  });
  it('says what it can when no slot is busy', () => {
    expect(endedLine([idle], 3)).toMatch(/^the command ended before its result \(its thread exited with code 3\)/);
  });
});

