/**
 * Test fixtures' rule sets (test-thread-stalls*.ts, test-thread-pauses.ts): a rule set whose first
 * claim decision on a worker thread waits a minute (or `stallMs`) before it answers, as a
 * lowest-priority thread on a busy machine may get no CPU (check-job.test.ts).
 * With a handshake file, the thread writes it before it stalls, and the main
 * thread's first claim decision waits (up to 30 s) until it is there, so the
 * thread is known to be stuck in its first world when the main thread goes on.
 * The answers are the base rule set's.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { extendRules, type RuleSet } from '../../model/rules.ts';

export function stallingThread(base: RuleSet, name: string, summary: string, handshake: () => string | undefined = () => undefined, stallMs = 60_000): RuleSet {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  // Whether this thread's first claim decision (with a handshake file, on the main thread) has come: a test
  // process loads the file once and runs several checks, only some of them with a handshake.
  let first = true;
  // A copy the loader imports to probe the rule set for state kept between calls (rules-state-probe.ts: its URL ends
  // in ?copy=N) answers as the base does: the stall is this fixture's device for timing threads, not its rules.
  if (import.meta.url.includes('?copy=')) first = false;
  return extendRules(base, {
    name,
    summary,
    mayClaim: (...args) => {
      if (first) {
        const flag = handshake();
        if (!isMainThread) {
          first = false;
          if (flag !== undefined) writeFileSync(flag, 'stalled');
          Atomics.wait(cell, 0, 0, stallMs);
        } else if (flag !== undefined) {
          first = false;
          for (let waited = 0; waited < 30_000 && !existsSync(flag); waited += 10) Atomics.wait(cell, 0, 0, 10);
        }
      }
      return base.mayClaim(...args);
    },
  });
}
