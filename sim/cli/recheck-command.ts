/**
 * `outbox-sim recheck DIR --under R [--old-rules FILE]`: every trace in a
 * folder, its recorded world re-run under R (as `replay --under` does), as
 * one table: still violates or no longer violates, and the first step at
 * which the run departs from the recording. Exit 1 when any trace still
 * violates. The rules the traces recorded are replaced, so never loaded;
 * older engines' rules recorded as a user's file must be supplied with
 * `--old-rules FILE` (hash-checked). `--rules R` is the former name of
 * `--under R`: within recheck it has no other meaning.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadRules } from '../rules-loader.ts';
import { readTrace } from '../../traces/read.ts';
import { rerunTrace } from '../outbox/rerun-trace.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';
import { terminalText } from '../terminal-text.ts';

/** Flags of `recheck` as commander gives them. */
export interface RecheckFlags {
  under?: string;
  /** The former name of `under`. */
  rules?: string;
  oldRules?: string;
  json?: boolean;
}

export async function recheckCommand(dir: string, flags: RecheckFlags, io: Io): Promise<number> {
  if (flags.under !== undefined && flags.rules !== undefined && flags.under !== flags.rules) throw new UsageError('--rules is the former name of --under: give one of them');
  const under = flags.under ?? flags.rules;
  if (under === undefined) throw new UsageError('recheck needs --under R (the rule set to re-run the traces under)');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder of traces`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.trace.jsonl')).sort();
  if (files.length === 0) throw new UsageError(`${dir} holds no .trace.jsonl files`);
  const { rules } = await loadRules(under);
  const rows = [];
  for (const f of files) {
    const trace = readTrace(join(dir, f));
    // --old-rules serves the traces whose older engines ran a user's file; the others take theirs from the catalog.
    const r = await rerunTrace(trace, rules, { oldRules: trace.header.oldRules?.source === 'catalog' ? undefined : flags.oldRules });
    rows.push({
      trace: trace.id,
      file: f,
      recordedRules: trace.header.rules.name,
      recordedProperty: trace.header.violation?.property ?? null,
      verdict: r.violation !== null ? 'still violates' : 'no longer violates',
      property: r.violation?.property ?? null,
      departedAt: r.departedAt,
      departedLabel: r.departedAt !== null ? (trace.steps[r.departedAt - 1]?.label ?? null) : null,
    });
  }
  const still = rows.some((r) => r.verdict === 'still violates');
  if (flags.json) {
    io.out(JSON.stringify({ rules: rules.name, rows }));
    return still ? 1 : 0;
  }
  io.out(`outbox-sim recheck ${terminalText(dir)} under ${terminalText(rules.name)}: ${rows.length} traces`);
  io.out(`${'trace'.padEnd(14)}${'recorded'.padEnd(50)}${'verdict'.padEnd(40)}departs at`);
  for (const r of rows) {
    io.out(
      `${r.trace.padEnd(14)}${terminalText(`${r.recordedRules}: ${r.recordedProperty ?? '-'}`).padEnd(50)}${`${r.verdict}${r.property ? ` (${r.property})` : ''}`.padEnd(40)}${r.departedAt === null ? 'follows the recording' : `step ${r.departedAt} (${terminalText(r.departedLabel ?? '?')})`}`,
    );
  }
  return still ? 1 : 0;
}
