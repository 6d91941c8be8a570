/**
 * SPIN's pan on the anchor model, built and run by the benchmark: its own
 * figures (states stored, transitions, search time) as pan prints them.
 */
import { execFileSync } from 'node:child_process';

/**
 * Memory limit (MB) of the unreduced pan: it stops there with a partial
 * search, near 1.7 million states on the 5-engine anchor, so that both
 * searches are of about the size of explore's beside SPIN (bench.ts bounds it at 2,000,000).
 */
export const SPIN_UNREDUCED_MEMLIM = 300;

/**
 * SPIN's model built once per configuration, twice: `pan` as the anchor's
 * README builds it (with SPIN's partial-order reduction, on by default), and
 * `pan-unreduced` without it (-DNOREDUCE), which stores every interleaving,
 * as explore does.
 */
export function spinBuild(dir: string, engines: number, attempts: number): void {
  execFileSync('spin', [`-DRULE=0`, `-DENGINES=${engines}`, `-DMAXATT=${attempts}`, '-a', 'outbox.pml'], { cwd: dir, stdio: 'pipe' });
  execFileSync('gcc', ['-O2', '-DMEMLIM=8000', '-o', 'pan', 'pan.c'], { cwd: dir, stdio: 'pipe' });
  execFileSync('gcc', ['-O2', `-DMEMLIM=${SPIN_UNREDUCED_MEMLIM}`, '-DNOREDUCE', '-o', 'pan-unreduced', 'pan.c'], { cwd: dir, stdio: 'pipe' });
}

export interface SpinReport {
  states: number;
  transitions: number;
  seconds: number;
  runs: number;
  /** False when pan stopped at its memory limit. */
  complete: boolean;
}

/**
 * SPIN's own figures for the pan built in `dir`. pan reports its search
 * time in clock ticks (0.01 s): a search shorter than a few ticks is run
 * again until the reported times add up to a second (at most 500 runs), and
 * their mean is the time. The tick a search starts in is random, so the
 * mean of the rounded times tends to the true time.
 */
export function spinRun(dir: string, pan: 'pan' | 'pan-unreduced'): SpinReport {
  let states = NaN;
  let transitions = NaN;
  let total = 0;
  let runs = 0;
  let complete = true;
  while (runs < 500 && (runs === 0 || total < 1)) {
    const out = execFileSync(`./${pan}`, ['-a', '-m1000000'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 24 });
    states = Number(/([\d.e+]+) states, stored/.exec(out)?.[1] ?? NaN);
    transitions = Number(/([\d.e+]+) transitions \(= stored\+matched\)/.exec(out)?.[1] ?? NaN);
    total += Number(/elapsed time ([\d.e+-]+) seconds/.exec(out)?.[1] ?? NaN);
    complete = !out.includes('reached -DMEMLIM bound');
    runs++;
  }
  return { states, transitions, seconds: total / runs, runs, complete };
}
