/**
 * fresh-cycle (its flaw is found in the suite's first world), except that
 * when OUTBOX_SIM_TEST_STALL names a file, a worker thread's first claim
 * decision writes that file and then waits a minute, and the main thread's
 * first claim decision waits (up to 30 s) until the file is there. So under
 * `check --stop-on-first --workers 2` the thread is stuck in the search of
 * a later world, one the first world's violation cuts off, as a
 * lowest-priority thread on a busy machine may be (check-job.test.ts). The
 * answers are fresh-cycle's.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import freshCycle from '../../model/catalog/fresh-cycle.ts';

const cell = new Int32Array(new SharedArrayBuffer(4));
let first = true;

const rules: RuleSet = extendRules(freshCycle, {
  name: 'fresh-cycle-thread-stalls-in-cut-world',
  summary: "fresh-cycle's answers; a worker thread's first claim decision takes a minute, the main thread's waits for it to begin.",
  mayClaim: (...args) => {
    const flag = process.env.OUTBOX_SIM_TEST_STALL;
    if (first && flag !== undefined) {
      first = false;
      if (isMainThread) {
        for (let waited = 0; waited < 30_000 && !existsSync(flag); waited += 10) Atomics.wait(cell, 0, 0, 10);
      } else {
        writeFileSync(flag, 'stalled');
        Atomics.wait(cell, 0, 0, 60_000);
      }
    }
    return freshCycle.mayClaim(...args);
  },
});

export default rules;
