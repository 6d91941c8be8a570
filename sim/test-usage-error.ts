/** Test helper: the message of the UsageError a promise rejects with (any other outcome fails the test). */
import { UsageError } from './usage-error.ts';

export async function usageError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error('expected a UsageError');
}
