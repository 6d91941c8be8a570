/**
 * fail-closed, except that on a worker thread its first claim decision
 * waits a minute before it answers: a thread that has taken a piece of a
 * check job and then gets no CPU, as a lowest-priority thread on a busy
 * machine may (check-job.test.ts). The answers are fail-closed's.
 */
import { isMainThread } from 'node:worker_threads';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const cell = new Int32Array(new SharedArrayBuffer(4));
let stalled = false;

const rules: RuleSet = extendRules(failClosed, {
  name: 'fail-closed-thread-stalls',
  summary: "fail-closed's answers; a worker thread's first claim decision takes a minute.",
  mayClaim: (...args) => {
    if (!isMainThread && !stalled) {
      stalled = true;
      Atomics.wait(cell, 0, 0, 60_000);
    }
    return failClosed.mayClaim(...args);
  },
});

export default rules;
