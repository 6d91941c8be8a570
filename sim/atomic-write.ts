/**
 * The one way this project writes a file: whole or not at all. Traces, shard
 * files, rendered reports, cached bundles and BENCHMARKS.md are read by other
 * processes (a reviewer, a worker thread, the next run), so a reader must see
 * the old file or the new one, never half of it, even when the writer is
 * killed mid-write (Ctrl-C, SIGTERM, a full disk).
 *
 * `write-file-atomic` (npm's own) does exactly that: it writes a temporary
 * file beside the target under a name unique to the process, thread and call,
 * fsyncs it, then renames it over the target, and removes the temporary file
 * if the write fails or the process exits first. A failure ends the command
 * with one line naming the file the user asked for (not the temporary name)
 * and the reason, as every other bad input does (exit 2, see usage-error.ts).
 */
import writeFileAtomicLib from 'write-file-atomic';
import { UsageError } from './usage-error.ts';

/** Writes `content` to `path` atomically: a temporary name, then a rename. */
export function writeFileAtomic(path: string, content: string): void {
  try {
    writeFileAtomicLib.sync(path, content);
  } catch (err) {
    throw new UsageError(`cannot write ${path}: ${reasonOf(err)}`);
  }
}

/** The system's one-word code and its words (`EACCES: permission denied`), without the temporary path it names. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { code } = err as NodeJS.ErrnoException;
  const words = err.message.replace(/^[A-Z]+: /, '').replace(/,.*$/s, '');
  return code === undefined ? words : `${code}: ${words}`;
}
