/**
 * fresh-cycle (its flaw is found in the suite's first world), except that
 * when OUTBOX_SIM_TEST_STALL names a file, a worker thread's first claim
 * decision writes that file and then waits a minute, and the main thread's
 * first claim decision waits until the file is there. So under
 * `check --stop-on-first --workers 2` the thread is stuck in the search of
 * a later world, one the first world's violation cuts off
 * (check-job.test.ts). The answers are fresh-cycle's.
 */
import freshCycle from '../../model/catalog/fresh-cycle.ts';
import { stallingThread } from './test-stalling-thread.ts';

export default stallingThread(
  freshCycle,
  'fresh-cycle-thread-stalls-in-cut-world',
  "fresh-cycle's answers; a worker thread's first claim decision takes a minute, the main thread's waits for it to begin.",
  () => process.env.OUTBOX_SIM_TEST_STALL,
);
