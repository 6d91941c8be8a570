/**
 * What a `check` worker thread runs, whichever way it was loaded (the
 * compiled entry, the bundle, or tsx): a range of seeds (check-task.ts,
 * piscina's pool of `--workers N` for `compare` and the bench), or its share
 * of a whole check job (job-thread.ts: the small worlds and the seeds from
 * one shared queue).
 */
// First, so that the thread runs at its lower priority before the rest of its code is compiled (thread-priority.ts says why).
import './thread-priority.ts';
import { ruleOutputToStderr } from '../rule-output.ts';
import type { ShardResult } from '../check.ts';
import { runTask, type CheckTask } from './check-task.ts';
import { runJobThread, type JobThreadTask } from './job-thread.ts';

// The rule files this thread loads print to stderr, never into the command's report (rule-output.ts).
ruleOutputToStderr();

export async function threadTask(task: CheckTask | JobThreadTask): Promise<ShardResult | number> {
  return 'job' in task ? runJobThread(task) : runTask(task);
}

export default threadTask;
