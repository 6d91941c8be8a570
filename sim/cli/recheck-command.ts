/**
 * `outbox-sim recheck DIR --under R [--old-rules FILE]`: every trace in a
 * folder, its recorded world re-run under R (as `replay --under` does), as
 * one table: what it violates now against what it recorded, and the first
 * step at which the run departs from the recording. Exit 1 when any trace
 * violates under R (still, another property, or one that recorded none).
 * The rules the traces recorded are replaced, so never loaded; older
 * engines' rules recorded as a user's file must be supplied with
 * `--old-rules FILE` (hash-checked): it serves the traces recorded with
 * one, the others are re-run without it. `--rules R` is the former name of
 * `--under R`: within recheck it has no other meaning.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadRules } from '../rules-loader.ts';
import { readTrace } from '../../traces/read.ts';
import { rerunTrace } from '../outbox/rerun-trace.ts';
import type { TraceHeader } from '../trace-format.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { terminalText } from '../terminal-text.ts';
import { countNoun } from '../count-text.ts';
import { recheckVerdict, verdictText, type RecheckVerdict } from './rerun-verdict.ts';

export { recheckVerdict, type RecheckVerdict };

/** Flags of `recheck` as commander gives them. */
export interface RecheckFlags {
  under?: string;
  /** The former name of `under`. */
  rules?: string;
  oldRules?: string;
  json?: boolean;
}

/** Whether a trace needs --old-rules: its older engines ran a user's rule file (catalog old rules are taken by name). */
function needsOldRulesFile(header: TraceHeader): boolean {
  return header.oldRules !== null && header.oldRules.source !== 'catalog';
}

export async function recheckCommand(dir: string, flags: RecheckFlags, io: Io): Promise<number> {
  if (flags.under !== undefined && flags.rules !== undefined && flags.under !== flags.rules) throw new UsageError('--rules is the former name of --under: give one of them');
  const under = flags.under ?? flags.rules;
  if (under === undefined) throw new UsageError('recheck needs --under R (the rule set to re-run the traces under)');
  if (!existsSync(dir)) throw new UsageError(`${dir} does not exist; give a folder of traces (the corpus this package ships is node_modules/outbox-sim/traces/corpus in a project that installed it)`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder of traces; give the folder (replay TRACE --under R re-runs one trace)`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.trace.jsonl')).sort();
  if (files.length === 0) throw new UsageError(`${dir} holds no .trace.jsonl files`);
  const traces = files.map((f) => ({ file: f, trace: readTrace(join(dir, f)) }));
  // A flag that serves no trace is a mistake worth saying (a wrong folder, a stale command line), not ignoring.
  if (flags.oldRules !== undefined && !traces.some((t) => needsOldRulesFile(t.trace.header))) {
    throw new UsageError(`no trace in ${dir} was recorded with older engines running a rule file, so --old-rules ${flags.oldRules} serves none: leave --old-rules out`);
  }
  const { rules } = await loadRules(under);
  const rows = [];
  for (const { file: f, trace } of traces) {
    let r;
    try {
      // A folder may mix traces recorded with a rule file for old rules and without: --old-rules goes only to the former.
      r = await rerunTrace(trace, rules, { oldRules: needsOldRulesFile(trace.header) ? flags.oldRules : undefined });
    } catch (e) {
      // In a folder of traces, a refusal must say which trace it is about.
      if (e instanceof UsageError) throw new UsageError(`${join(dir, f)}: ${e.message}`);
      throw e;
    }
    const recordedProperty = trace.header.violation?.property ?? null;
    const property = r.violation?.property ?? null;
    rows.push({
      trace: trace.id,
      file: f,
      recordedRules: trace.header.rules.name,
      recordedProperty,
      verdict: recheckVerdict(recordedProperty, property),
      property,
      departedAt: r.departedAt,
      departedLabel: r.departedAt !== null ? (trace.steps[r.departedAt - 1]?.label ?? null) : null,
    });
  }
  // Exit 1 for a violation under R on any recorded world, whatever the trace recorded (see the verdicts above).
  const violates = rows.some((r) => r.property !== null);
  if (flags.json) {
    io.out(JSON.stringify({ rules: rules.name, rows }));
    return violates ? 1 : 0;
  }
  io.out(`outbox-sim recheck ${terminalText(dir)} under ${terminalText(rules.name)}: ${countNoun(rows.length, 'trace')}`);
  for (const line of recheckTable(rows)) io.out(line);
  return violates ? 1 : 0;
}

/** What {@link recheckTable} prints of a re-run trace. */
export interface RecheckRow {
  trace: string;
  recordedRules: string;
  recordedProperty: string | null;
  verdict: RecheckVerdict;
  property: string | null;
  departedAt: number | null;
  departedLabel: string | null;
}

/** The table of re-run traces: a header, then one row per trace, each column as wide as its widest cell and two spaces. */
export function recheckTable(rows: readonly RecheckRow[]): string[] {
  const verdicts = rows.map((r) => terminalText(verdictText(r.verdict, r.recordedProperty, r.property)));
  const verdictWidth = Math.max(40, ...verdicts.map((v) => v.length + 2));
  // As wide as the longest recorded cell: a long rule set and property name ran into the verdict.
  const recorded = rows.map((r) => terminalText(`${r.recordedRules}: ${r.recordedProperty ?? 'no violation'}`));
  const recordedWidth = Math.max(50, ...recorded.map((c) => c.length + 2));
  return [
    `${'trace'.padEnd(14)}${'recorded'.padEnd(recordedWidth)}${'verdict'.padEnd(verdictWidth)}departs at`,
    ...rows.map(
      (r, i) =>
        `${r.trace.padEnd(14)}${recorded[i].padEnd(recordedWidth)}${verdicts[i].padEnd(verdictWidth)}${r.departedAt === null ? 'follows the recording' : `step ${r.departedAt} (${terminalText(r.departedLabel ?? '?')})`}`,
    ),
  ];
}
