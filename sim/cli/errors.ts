/** Parsers of command-line flags: a malformed one is a {@link UsageError} naming the flag. */
import { UsageError } from '../usage-error.ts';

/** Parses a non-negative integer flag, naming the flag when it is malformed. */
export function intFlag(flag: string, value: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  // The range too: "-5" is a whole number to a reader, and was refused as not one.
  if (!/^\d+$/.test(value)) {
    const range = max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ` of at least ${min}`;
    throw new UsageError(`${flag} must be a whole number${range}, got "${value}"`);
  }
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Parses a choice flag against its allowed values. */
export function choiceFlag<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  }
  return value as T;
}
