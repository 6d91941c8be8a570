/**
 * `outbox-sim receipts [--json]`: reproduces the command-receipt results of
 * docs/receipts.md by running the receipts system: the controlled-conditions
 * table (C1..C9) and the dispatch scenarios (I0..I7), with counts at every
 * layer (docs/receipts.md, 'What each layer counts') and, per scenario, the mechanism that decided it.
 */
import { runConditions, type ConditionResult } from '../receipts/conditions.ts';
import type { LayerReport } from '../receipts/layers.ts';
import { runScenarios, type ScenarioResult } from '../receipts/scenarios.ts';
import type { Io } from './io.ts';
import { countNoun } from '../count-text.ts';

/** Pads every column of a table of strings to its widest cell. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: readonly string[]): string => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/**
 * Two lines of per-layer counts, every layer of docs/receipts.md ('What each layer counts') in its order:
 * the disk and the reader, then the kernel's decisions and the callback up to the outside world.
 */
function layerLines(l: LayerReport): string[] {
  const refusals = Object.keys(l.refusals).map((k) => `${k} ${l.refusals[k]}`).join(', ') || 'none';
  const d = l.decisions;
  return [
    `bytes kept ${l.bytesKept} (${countNoun(l.lines, 'line')}); reads: found ${l.reads.found}, absent ${l.reads.absent}, corrupt ${l.reads.corrupt}, ` +
      `unknown-version ${l.reads.unknownVersion}, threw ${l.reads.threw}; records read: completed ${l.recordsRead.completed}, ` +
      `pending ${l.recordsRead.pending}, none ${l.recordsRead.none}; rows skipped: corrupt ${l.skipped.corrupt}, unknown-version ${l.skipped.unknownVersion}`,
    `kernel decisions: replay ${d.replay}, call ${d.call}, stale ${d.stale}, unavailable ${d.unavailable}; callbacks ${l.callbacks}; refusals: ${refusals}; attempts created ${l.attempts}; SDK starts ${l.starts}; effects ${l.effects}`,
  ];
}

function conditionsText(rows: readonly ConditionResult[]): string[] {
  const out = [
    'Controlled conditions: the kernel with a counting executor; each retry is a fresh kernel instance (a new process, no memory).',
    'Counts are cumulative over the first handling and the retry.',
    '',
    ...table(
      ['id', 'condition', 'second handling', 'callbacks / effects'],
      rows.map((r) => [r.id, r.name, r.result, `${r.callbacks} / ${r.effects}`]),
    ),
    '',
    'Per layer:',
  ];
  for (const r of rows) {
    out.push(`  ${r.id}  second read: ${r.secondRead.diagnostic}, record ${r.secondRead.record}, skipped corrupt ${r.secondRead.skipped.corrupt} / unknown-version ${r.secondRead.skipped.unknownVersion}`);
    for (const line of layerLines(r.layers)) out.push(`      ${line}`);
    for (const v of r.violations) out.push(`      breaks ${v}`);
  }
  return out;
}

function scenariosText(rows: readonly ScenarioResult[]): string[] {
  const out = [
    'Dispatch scenarios: the real dispatcher behind the callback, each after one successful first execution (still running).',
    'Counts are cumulative from the first execution.',
    '',
    ...table(['id', 'scenario', 'retry', 'SDK starts', 'attempts'], rows.map((r) => [r.id, r.name, r.result, String(r.starts), String(r.attempts)])),
    '',
    'Decided by, and per layer:',
  ];
  for (const r of rows) {
    out.push(`  ${r.id}  ${r.mechanism}`);
    for (const line of layerLines(r.layers)) out.push(`      ${line}`);
    for (const v of r.violations) out.push(`      breaks ${v}`);
  }
  return out;
}

/** Runs `outbox-sim receipts [--json]` (its flag parsed by the CLI); returns the exit code. */
export function receiptsCommand(json: boolean, io: Pick<Io, 'out'>): number {
  const conditions = runConditions();
  const scenarios = runScenarios();
  if (json) {
    io.out(
      JSON.stringify({
        conditions: conditions.map((c) => ({
          id: c.id, name: c.name, result: c.result, callbacks: c.callbacks, effects: c.effects,
          starts: c.starts, secondRead: c.secondRead, layers: c.layers, violations: c.violations,
        })),
        scenarios: scenarios.map((s) => ({
          id: s.id, name: s.name, result: s.result, starts: s.starts, attempts: s.attempts,
          mechanism: s.mechanism, callbacks: s.callbacks, effects: s.effects, layers: s.layers, violations: s.violations,
        })),
      }),
    );
    return 0;
  }
  for (const line of [...conditionsText(conditions), '', ...scenariosText(scenarios)]) io.out(line);
  return 0;
}
