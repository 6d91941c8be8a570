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
 * is a thrown error (which any runner reports) or a matcher result.
 */
import type { CheckResult, CompareResult, ExploreResult } from './commands.ts';

/** A result that can hold or break properties: what `check`, `explore` and `compare` resolve to. */
export type CheckedResult = CheckResult | ExploreResult | CompareResult;

/** What a failure names: one violation, its trace and its replay command. */
export interface FailureLine {
  summary: string;
  path: string | null;
  replay: string | null;
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

/** The violations of a result, one line each (an empty list: every property held). */
export function failuresOf(result: CheckedResult): FailureLine[] {
  if ('rows' in result) {
    return result.rows
      .filter((r) => r.verdict === 'violated')
      .map((r) => ({ summary: `${r.label}: ${r.property} violated (trace ${r.trace ?? '?'}, ${r.steps ?? '?'} steps)`, path: r.trace, replay: r.replay }));
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
  if (options.proof === true && 'proof' in result && result.ok && !result.complete) lines.push(`no proof: the search stopped at ${result.stoppedBy ?? 'a bound'} after ${result.states} states`);
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
