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
import { alternatedRounds } from './rounds.ts';

/** Wall seconds from starting `n` `check` processes together until the last has exited. */
export async function checkProcessesSeconds(n: number, args: readonly string[], now: () => number): Promise<number> {
  const t = now();
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((done, fail) => {
          const child = spawn(process.execPath, ['bin/outbox-sim.mjs', 'check', ...args, '--json', '--out', join(tmpdir(), 'outbox-sim-bench')], { stdio: 'ignore' });
          child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`bench: check ${args.join(' ')} exited with ${code}`))));
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
 * with 2. The swarm only (`--swarm-only`): worker threads share out seeds,
 * while the small worlds explored before them run on one thread either way.
 */
export async function checkProcessRounds(seeds: number, rounds: number, now: () => number): Promise<ProcessRounds> {
  const run = (workers: number) => () => checkProcessesSeconds(1, ['--swarm-only', '--seeds', `${seeds}`, '--workers', `${workers}`], now);
  return { seeds, ...(await alternatedRounds(rounds, run(1), run(2))) };
}
