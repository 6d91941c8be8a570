/**
 * The envelope-id-is-key mutant (its flaw is found within the first hundred
 * states of every small world, before a search looks at whether to stop),
 * except that when OUTBOX_SIM_TEST_PAUSE names a file, a worker thread's
 * first claim decision writes that file and then waits 1.5 s (not the minute
 * of test-thread-stalls.ts), and the main thread's first claim decision
 * waits until the file is there. So the main thread searches the world the
 * thread holds too and ends it first, and the thread then ends its own
 * search of it, violation and all, after the job (check-job.test.ts: the
 * second search writes no trace). The answers are the mutant's.
 */
import envelopeIdIsKey from '../../properties/mutants/envelope-id-is-key.ts';
import { stallingThread } from './test-stalling-thread.ts';

export default stallingThread(
  envelopeIdIsKey,
  'envelope-id-is-key-thread-pauses',
  "envelope-id-is-key's answers; a worker thread's first claim decision takes 1.5 s, the main thread's waits for it to begin.",
  () => process.env.OUTBOX_SIM_TEST_PAUSE,
  1_500,
);
