/**
 * `outbox-sim check` timed as a user runs it: each run a process of its own,
 * from its start to its exit (loading the CLI, starting worker threads,
 * every compiler warming up, writing the report). The in-process figures of
 * the bench run the 1-worker side on a main thread warmed by earlier rounds;
 * these pay every start-up on both sides, which is what `--workers` gives a
 * person at the prompt.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenCpuSeconds } from './first-answers.ts';
import { alternatedRounds } from './rounds.ts';

/** Wall seconds from starting `n` `check` processes together until the last has exited. */
export async function checkProcessesSeconds(n: number, args: readonly string[], now: () => number): Promise<number> {
  const t = now();
  await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<void>((done, fail) => {
          // Each process its own output folder, as independent users' runs would have; stderr kept so a failure says why.
          const out = join(tmpdir(), `outbox-sim-bench-${process.pid}-${i}`);
          const child = spawn(process.execPath, ['bin/outbox-sim.mjs', 'check', ...args, '--json', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
          child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`bench: check ${args.join(' ')} exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`))));
          child.on('error', fail);
        }),
    ),
  );
  return now() - t;
}

/** Whole-process seconds of `check --seeds N` with 1 and with 2 workers, round by round. */
export interface ProcessRounds {
  seeds: number;
  one: number[];
  two: number[];
}

/**
 * `rounds` alternated rounds of one `check` process with 1 worker and one
 * with 2: the swarm only (`--swarm-only`), seeds shared out between threads.
 */
export async function checkProcessRounds(seeds: number, rounds: number, now: () => number): Promise<ProcessRounds> {
  const run = (workers: number) => () => checkProcessesSeconds(1, ['--swarm-only', '--seeds', `${seeds}`, '--workers', `${workers}`], now);
  return { seeds, ...(await alternatedRounds(rounds, run(1), run(2))) };
}

/** Whole-process seconds of one `check ARGS` with 1 worker, one with 2, and two with 1 started together, round by round. */
export interface WorkersAndCeiling {
  one: number[];
  two: number[];
  pair: number[];
  /** CPU seconds (user + system, every thread) of the same runs, where measurable (Linux); the pair's is both processes'. */
  cpu?: { one: number[]; two: number[]; pair: number[] };
}

/**
 * 2 workers against 1 beside the machine's own ceiling for the same work,
 * measured in the same rounds: each round times one process with
 * `--workers 1`, one with `--workers 2`, and two independent processes
 * with `--workers 1` started together (the order rotates each round). The
 * ceiling is 2 x (1 worker) / (two processes): what two cores give two
 * copies of the work that share nothing; 2 workers cannot beat it.
 */
export async function workersAndCeiling(args: readonly string[], rounds: number, now: () => number): Promise<WorkersAndCeiling> {
  const out: WorkersAndCeiling = { one: [], two: [], pair: [] };
  const cpu = { one: [] as number[], two: [] as number[], pair: [] as number[] };
  let measurable = true;
  const runs: ['one' | 'two' | 'pair', () => Promise<number>][] = [
    ['one', () => checkProcessesSeconds(1, [...args, '--workers', '1'], now)],
    ['two', () => checkProcessesSeconds(1, [...args, '--workers', '2'], now)],
    ['pair', () => checkProcessesSeconds(2, [...args, '--workers', '1'], now)],
  ];
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < runs.length; k++) {
      const [side, run] = runs[(k + r) % runs.length];
      const before = childrenCpuSeconds();
      out[side].push(await run());
      const after = childrenCpuSeconds();
      if (before === null || after === null) measurable = false;
      else cpu[side].push(after - before);
    }
  }
  return measurable ? { ...out, cpu } : out;
}

/** The ceiling of a {@link WorkersAndCeiling} (best of each side), and 2 workers' ratio against 1 and against the ceiling. */
export function ceilingRatio(m: WorkersAndCeiling): { ratio: number; ceiling: number; ofCeiling: number } {
  const one = Math.min(...m.one);
  const ratio = one / Math.min(...m.two);
  const ceiling = (2 * one) / Math.min(...m.pair);
  return { ratio, ceiling, ofCeiling: ratio / ceiling };
}

/**
 * CPU seconds of 1 worker against 2 (least of each side's runs), and their
 * quotient, or null where not measured. When every core is busy (the two
 * processes of the ceiling, and 2 workers) the wall time follows the CPU
 * time, so ratio / ceiling comes to about this quotient: what the second
 * thread costs beyond its share of the work (its own start-up, and its
 * compiler optimizing every hot function again) caps it, however the work
 * is shared out.
 */
export function cpuRatio(m: WorkersAndCeiling): { one: number; two: number; ratio: number } | null {
  if (m.cpu === undefined || m.cpu.one.length === 0 || m.cpu.two.length === 0) return null;
  const one = Math.min(...m.cpu.one);
  const two = Math.min(...m.cpu.two);
  return { one, two, ratio: one / two };
}
