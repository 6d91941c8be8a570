/**
 * `outbox-sim/vitest`: fails a test with what a reviewer needs from a
 * violation: its one-line summary, the path of the trace written for it and
 * the command that replays it.
 *
 *   const report = await check({ rules: './rules/mine.ts', seeds: 500 });
 *   expectHolds(report);
 *
 * or, as a matcher: `expect.extend(outboxMatchers)`, then
 * `expect(report).toHoldEveryProperty()`. Neither imports vitest: a failure
 * is a thrown error (which any runner reports) or a matcher result. Only the
 * declarations name vitest: importing this module adds the matcher to
 * vitest's types (the `declare module 'vitest'` below), so that call
 * type-checks in a user's strict project without a declaration of theirs.
 */
import type { CheckResult, CompareResult, ExploreResult } from './commands.ts';
// Types only, erased from the JavaScript: the augmentation at the end needs vitest's declarations in the program.
import type {} from 'vitest';

/** A result that can hold or break properties: what `check`, `explore` and `compare` resolve to. */
export type CheckedResult = CheckResult | ExploreResult | CompareResult;

/** What a failure names: one violation, its trace and its replay command. */
export interface FailureLine {
  summary: string;
  path: string | null;
  replay: string | null;
}

/** A failure of a check or an explore, which write a trace for each: its path and replay command are there. */
export interface TracedFailure extends FailureLine {
  path: string;
  replay: string;
}

/** How strict {@link expectHolds} is. */
export interface HoldsOptions {
  /**
   * `explore` only: also fail when the search stopped at a bound (states,
   * depth, memory) before covering the whole world, which proves nothing about
   * the states beyond it. Default false.
   */
  proof?: boolean;
}

/**
 * The violations of a result, one line each (an empty list: every property
 * held). A check's list starts with its small worlds' violations, which its
 * `violations` (the swarm's) leave out: a check can fail on them alone.
 */
export function failuresOf(result: CheckResult | ExploreResult): TracedFailure[];
export function failuresOf(result: CheckedResult): FailureLine[];
export function failuresOf(result: CheckedResult): FailureLine[] {
  if ('rows' in result) {
    return result.rows
      .filter((r) => r.verdict === 'violated')
      .map((r) => ({ summary: `${r.label}: ${r.property} violated (trace ${r.trace ?? '?'}, ${r.steps ?? '?'} steps)`, path: r.path, replay: r.replay }));
  }
  if ('runs' in result) {
    // The small worlds' violations first (check explores them before its swarm): a check can fail on them alone.
    const small = (result.smallWorlds?.worlds ?? []).flatMap((w) =>
      w.violations.map((v) => ({ summary: `${result.rules}: ${v.property} violated in small world "${w.name}" (${v.steps} steps, shortest): ${v.detail}`, path: v.path, replay: v.replay })),
    );
    return [...small, ...result.violations.map((v) => ({ summary: `${result.rules}: ${v.property} violated at seed ${v.seed} (${v.steps} steps): ${v.detail}`, path: v.path, replay: v.replay }))];
  }
  return result.violations.map((v) => ({ summary: `${v.property} violated (${v.steps} steps, shortest): ${v.detail}`, path: v.path, replay: v.replay }));
}

/** The failure message: a line per violation, with its trace and replay command indented under it. */
export function failureMessage(result: CheckedResult, options: HoldsOptions = {}): string | null {
  const lines: string[] = [];
  for (const f of failuresOf(result)) {
    lines.push(f.summary);
    if (f.path !== null) lines.push(`  trace: ${f.path}`);
    if (f.replay !== null) lines.push(`  replay: ${f.replay}`);
  }
  if ('interrupted' in result && result.interrupted !== null) lines.push(`interrupted (${result.interrupted.signal}): ${result.interrupted.runs} of ${result.interrupted.seeds} seeds ran`);
  if (options.proof === true && 'proof' in result && result.ok && !result.complete) lines.push(`no proof: the search stopped at ${result.stopDetail ?? result.stoppedBy ?? 'a bound'} after ${result.states} states`);
  return lines.length === 0 ? null : lines.join('\n');
}

/** Thrown by {@link expectHolds}; runners show its message as the test's failure. */
export class PropertyViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssertionError';
  }
}

/** Fails (throws) unless every property held: the message is each violation's summary, trace path and replay command. */
export function expectHolds(result: CheckedResult, options: HoldsOptions = {}): void {
  const message = failureMessage(result, options);
  if (message !== null) throw new PropertyViolation(message);
}

/** What a matcher returns to `expect.extend`. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** `expect.extend(outboxMatchers)`: `expect(await check(...)).toHoldEveryProperty()`. */
export const outboxMatchers = {
  toHoldEveryProperty(received: CheckedResult, options: HoldsOptions = {}): MatcherResult {
    const message = failureMessage(received, options);
    return { pass: message === null, message: () => message ?? 'expected a violation, and every property held' };
  },
};

declare module 'vitest' {
  // Merged into vitest's own `Matchers<T = any>` (its assertions and `expect.extend` read it): a default may not be given twice.
  interface Matchers<T> {
    /** Passes when every property held ({@link expectHolds}); fails with each violation's summary, trace and replay command. */
    toHoldEveryProperty(options?: HoldsOptions): T;
  }
}
