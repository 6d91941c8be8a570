/**
 * Bad input ends a command with one clear line and exit code 2 (as the README promises:
 * say what is wrong and what to do). Commands, and the readers of their
 * inputs (trace files, rule files, shard files), throw {@link UsageError};
 * the CLI's entry point turns it into that line.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
