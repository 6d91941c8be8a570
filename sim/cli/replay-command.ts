/**
 * `outbox-sim replay TRACE [--rules FILE] [--old-rules FILE] [--under R] [--json]`:
 * exit 0 when the trace replays identically, 1 when it diverges, 2 on bad
 * input. A trace recorded with the user's own rule file names it but never
 * loads it: `--rules FILE` (and `--old-rules FILE` for its older engines)
 * supplies it, checked against the recorded content hash before it runs.
 * With `--under R`, the recorded world is re-run under R instead: exit 1 when
 * it still violates, 0 when it no longer does.
 */
import { loadRules } from '../rules-loader.ts';
import { readTrace } from '../../traces/read.ts';
import { clip } from '../../traces/render/bound.ts';
import { traceEnd, type BrokenDecisionNote, type TraceEnd, type TraceHeader } from '../trace-format.ts';
import { replayExactly, rerunTrace, type ExactReplay } from '../outbox/rerun-trace.ts';
import type { Outcome } from './outcome.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { terminalText } from '../terminal-text.ts';
import { recheckVerdict, verdictText, type RecheckVerdict } from './rerun-verdict.ts';

/** Flags of `replay` as commander gives them. */
export interface ReplayFlags {
  /** The rule file the trace was recorded with (its content must hash as recorded). */
  rules?: string;
  /** The rule file the trace's older engines ran (version skew). */
  oldRules?: string;
  /** Re-run the recorded world under this rule set instead of replaying exactly. */
  under?: string;
  json?: boolean;
}

/** What `replay --json` prints: an exact replay (identical, or where it diverges), or the verdict of a re-run `--under` other rules. */
export type ReplayResult =
  | ({ trace: string } & ExactReplay & {
      /** How the recorded trace ends, as the text says it: in its violation (`property`), before a broken decision, at a diff's first difference, or clean. */
      end: TraceEnd;
      /** The decision the trace stops before (`end` 'broken-decision': its run cannot go on past it), else null. */
      brokenDecision: BrokenDecisionNote | null;
    })
  | { trace: string; rules: string; verdict: RecheckVerdict; recorded: string | null; property: string | null; departedAt: number | null; skipped: number; steps: number };

/** How the trace ends, after its step count: its violation, a broken decision it stops before, or a diff's first difference. */
function endWords(h: TraceHeader): string {
  const b = h.brokenDecision;
  switch (traceEnd(h)) {
    case 'violation':
      return `, ending in ${terminalText(h.violation?.property ?? '')}`;
    case 'broken-decision':
      return `, stopping before a broken decision (rule set ${terminalText(b?.ruleSet ?? '')}: ${terminalText(`${b?.decision} ${b?.detail}`)})`;
    case 'diff':
      return ", stopping at a diff's first difference (no property judged past it)";
    default:
      return '';
  }
}

export async function replayCommand(path: string, flags: ReplayFlags, io: Io): Promise<number> {
  return (await runReplay(path, flags, io)).code;
}

/** The whole of `replay`: the CLI's command and the library's `replay` (sim/api/) both run it. */
export async function runReplay(path: string, flags: ReplayFlags, io: Io): Promise<Outcome<ReplayResult>> {
  const trace = readTrace(path);
  const supplied = { rules: flags.rules, oldRules: flags.oldRules };
  if (flags.under === undefined) {
    const exact = await replayExactly(trace, supplied);
    // A trace is data from anywhere: a label of a megabyte is cut as show cuts it (traces/render/bound.ts).
    const r = exact.identical ? exact : { ...exact, why: clip(exact.why) };
    const result: ReplayResult = { trace: trace.id, ...r, property: trace.header.violation?.property ?? null, end: traceEnd(trace.header), brokenDecision: trace.header.brokenDecision ?? null };
    if (flags.json) io.out(JSON.stringify(result));
    else if (r.identical) io.out(`trace ${trace.id} replays identically: ${r.steps} steps${endWords(trace.header)}`);
    else io.out(`trace ${trace.id} diverges at step ${r.step}: ${terminalText(r.why)}`);
    return { code: r.identical ? 0 : 1, result };
  }
  if (flags.rules !== undefined) {
    throw new UsageError(`--rules supplies the rule file the trace was recorded with, for an exact replay; --under ${flags.under} re-runs the recorded world under other rules: give one of them`);
  }
  const { rules } = await loadRules(flags.under);
  const r = await rerunTrace(trace, rules, supplied);
  const recorded = trace.header.violation?.property ?? null;
  const now = r.violation?.property ?? null;
  const verdict = recheckVerdict(recorded, now);
  const result: ReplayResult = { trace: trace.id, rules: rules.name, verdict, recorded, property: now, departedAt: r.departedAt, skipped: r.skipped, steps: r.steps };
  if (flags.json) {
    io.out(JSON.stringify(result));
  } else {
    io.out(`trace ${trace.id} under ${terminalText(rules.name)}: ${terminalText(verdictText(verdict, recorded, now))}${r.violation ? ` at step ${r.violation.step}: ${terminalText(clip(r.violation.detail))}` : ''}`);
    // The re-run goes on past the recording's last step when the world is not quiet there (the liveness phase): said, so that a step number past the trace's end is not a puzzle.
    const past = r.steps > trace.steps.length ? `, then runs on by itself to step ${r.steps} (faults stopped, choices seeded; those steps are not written)` : '';
    io.out(r.departedAt === null ? `  follows the recording to its end${past}` : `  departs from the recording at step ${r.departedAt} (${terminalText(clip(trace.steps[r.departedAt - 1]?.label ?? '?'))}); ${r.skipped} recorded events were not enabled`);
  }
  return { code: r.violation !== null ? 1 : 0, result };
}
