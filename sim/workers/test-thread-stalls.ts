/**
 * fail-closed, except that on a worker thread its first claim decision
 * waits a minute before it answers: a thread that has taken a piece of a
 * check job and then gets no CPU, as a lowest-priority thread on a busy
 * machine may (check-job.test.ts). When OUTBOX_SIM_TEST_STALL names a
 * file, the thread writes it as it stalls, and the main thread's first claim
 * decision waits until it is there. The answers are fail-closed's.
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { stallingThread } from './test-stalling-thread.ts';

export default stallingThread(
  failClosed,
  'fail-closed-thread-stalls',
  "fail-closed's answers; a worker thread's first claim decision takes a minute.",
  () => process.env.OUTBOX_SIM_TEST_STALL,
);
