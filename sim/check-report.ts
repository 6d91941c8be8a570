/**
 * The report of a check: violations (shrunk and written as traces), which
 * faults fired and which never did, record statuses reached, the crash-point
 * matrix, and counts at every layer (docs/properties.md, 'Layers the report counts').
 */
import { ANSWERS } from './outbox/options.ts';
import type { ShardResult } from './check.ts';
import type { WrittenTrace } from './outbox/record-trace.ts';
import { terminalText } from './terminal-text.ts';

/** Fault kinds a check must see fire (docs/faults.md), by the tag that marks them. */
export function faultKinds(skew: boolean): string[] {
  return [
    'fault:crash',
    'fault:crash-in-post',
    ...ANSWERS.filter((a) => a !== 'crash-in-post').map((a) => `answer:${a}`),
    'fault:tear-record',
    'fault:tear-claim',
    'fault:newer-schema',
    'fault:legacy-record',
    'fault:replace-during-send',
    'fault:requeue',
    'fault:requeue-reset',
    'fault:restore',
    ...(skew ? ['fault:upgrade'] : []),
  ];
}

/** Each durable write, with the lifecycle state an engine crashes in just before and just after it. */
export const CRASH_POINTS: readonly { write: string; before: string; after: string }[] = [
  { write: 'publish (record write)', before: 'crash@idle', after: 'crash@claiming' },
  { write: 'claim', before: 'crash@claiming', after: 'crash@preSend' },
  { write: 'pre-send write', before: 'crash@preSend', after: 'crash@posting' },
  { write: 'POST (broker received)', before: 'crash@posting', after: 'crash@post-received' },
  { write: 'completion write(s)', before: 'crash@completing', after: 'crash@releasing' },
  { write: 'release claim', before: 'crash@releasing', after: 'crash@disposing' },
  { write: 'dispose (archive/quarantine)', before: 'crash@disposing', after: 'crash@idle' },
];

/** Counts at every layer. */
export interface Layers {
  bodiesWritten: number;
  recordsRead: { found: number; absent: number; corrupt: number; unknownVersion: number };
  claimsTaken: number;
  postsSent: number;
  bodiesStored: number;
  deliveriesReported: number;
}

/** Layer counts from a run's tags. */
export function layersOf(tags: Record<string, number>): Layers {
  const t = (k: string) => tags[k] ?? 0;
  return {
    bodiesWritten: t('layer:written'),
    recordsRead: { found: t('read:found'), absent: t('read:absent'), corrupt: t('read:corrupt'), unknownVersion: t('read:unknown-version') },
    claimsTaken: t('layer:claim'),
    postsSent: t('layer:post'),
    bodiesStored: t('layer:stored'),
    deliveriesReported: t('layer:reported'),
  };
}

/** A violation as reported. */
export interface ReportedViolation {
  property: string;
  seed: number;
  trace: string;
  path: string;
  steps: number;
  stepsBeforeShrink: number;
  runs: number;
  subject: string;
  body: string;
  layer: string;
  detail: string;
  replay: string;
}

/** The whole report; `--json` prints it. */
export interface CheckReport {
  ok: boolean;
  rules: string;
  oldRules: string | null;
  runs: number;
  steps: number;
  seconds: number;
  violations: ReportedViolation[];
  reached: {
    faults: Record<string, number>;
    neverFired: string[];
    statuses: Record<string, number>;
    crashPoints: { write: string; before: number; after: number }[];
  };
  layers: Layers;
  ends: Record<string, number>;
}

/** Builds the report of a merged check. */
export function buildReport(
  merged: ShardResult,
  written: WrittenTrace[],
  meta: { rules: string; oldRules: string | null; seconds: number; replayCommand: (path: string) => string },
): CheckReport {
  const kinds = faultKinds(meta.oldRules !== null);
  const faults = Object.fromEntries(kinds.map((k) => [k, merged.tags[k] ?? 0]));
  const violations: ReportedViolation[] = written.map((w) => {
    const first = merged.first[w.violation.property];
    return {
      property: w.violation.property,
      seed: first?.seed ?? w.trace.header.seed,
      trace: w.trace.id,
      path: w.path,
      steps: w.stepsAfter,
      stepsBeforeShrink: w.stepsBefore,
      runs: merged.violatedRuns[w.violation.property] ?? 0,
      subject: w.violation.subject,
      body: w.violation.body,
      layer: w.violation.layer,
      detail: w.violation.detail,
      replay: meta.replayCommand(w.path),
    };
  });
  return {
    ok: violations.length === 0,
    rules: meta.rules,
    oldRules: meta.oldRules,
    runs: merged.runs,
    steps: merged.steps,
    seconds: meta.seconds,
    violations,
    reached: {
      faults,
      neverFired: kinds.filter((k) => faults[k] === 0),
      statuses: merged.reached,
      crashPoints: CRASH_POINTS.map((c) => ({ write: c.write, before: merged.tags[c.before] ?? 0, after: merged.tags[c.after] ?? 0 })),
    },
    layers: layersOf(merged.tags),
    ends: merged.ends,
  };
}

function n(x: number): string {
  return x.toLocaleString('en-US');
}

/** The summary a person reads. */
export function renderReport(r: CheckReport): string[] {
  const lines: string[] = [];
  lines.push(`outbox-sim check: rules ${terminalText(r.rules)}${r.oldRules ? `, old rules ${terminalText(r.oldRules)} (version skew)` : ''}`);
  lines.push(`  ${n(r.runs)} runs, ${n(r.steps)} steps, ${r.seconds.toFixed(1)} s`);
  lines.push('');
  if (r.violations.length === 0) {
    lines.push('RESULT: no property violated');
  } else {
    lines.push(`RESULT: ${r.violations.length} propert${r.violations.length === 1 ? 'y' : 'ies'} violated`);
    for (const v of r.violations) {
      lines.push(`  ${v.property} (${n(v.runs)} runs; first at seed ${v.seed}): ${terminalText(v.detail)}`);
      lines.push(`    trace ${v.trace}: ${terminalText(v.path)} (shrunk ${v.stepsBeforeShrink} -> ${v.steps} steps)`);
      lines.push(`    replay: ${terminalText(v.replay)}`);
    }
  }
  lines.push('');
  lines.push('Faults fired (steps):');
  for (const [k, v] of Object.entries(r.reached.faults)) lines.push(`  ${k.replace(/^(fault|answer):/, '').padEnd(24)} ${n(v)}`);
  if (r.reached.neverFired.length > 0) {
    lines.push(`WARNING: these faults never fired, so nothing was shown about them: ${r.reached.neverFired.join(', ')}`);
  }
  lines.push('Record statuses reached (runs):');
  for (const [k, v] of Object.entries(r.reached.statuses).sort()) lines.push(`  ${k.replace(/^reached:/, '').padEnd(32)} ${n(v)}`);
  lines.push('Crash points (crashes before / after each durable write):');
  for (const c of r.reached.crashPoints) lines.push(`  ${c.write.padEnd(30)} ${String(c.before).padStart(7)} / ${c.after}`);
  const l = r.layers;
  lines.push('Layers:');
  lines.push(`  bodies written ${n(l.bodiesWritten)}; records read: found ${n(l.recordsRead.found)}, absent ${n(l.recordsRead.absent)}, corrupt ${n(l.recordsRead.corrupt)}, unknown version ${n(l.recordsRead.unknownVersion)}`);
  lines.push(`  claims taken ${n(l.claimsTaken)}; POSTs sent ${n(l.postsSent)}; bodies stored by the broker ${n(l.bodiesStored)}; deliveries reported ${n(l.deliveriesReported)}`);
  lines.push(`Runs ended: ${Object.entries(r.ends).map(([k, v]) => `${k} ${n(v)}`).join(', ')}`);
  return lines;
}
