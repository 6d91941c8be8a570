/**
 * Bad input ends a command with one clear line and exit code 2 (as the README promises:
 * say what is wrong and what to do). Commands, and the readers of their
 * inputs (trace files, rule files, shard files), throw {@link UsageError};
 * the CLI's entry point turns it into that line.
 */
export class UsageError extends Error {
  /** `cause`: the error behind it, when there is one (a rule file's import that threw), for a library caller to look into. */
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'UsageError';
  }
}
