/**
 * Counts at every layer of a receipts run (docs/receipts.md, 'What each layer counts'): bytes kept,
 * records read and how, kernel decisions, callbacks entered, dispatcher
 * refusals, attempts created, SDK starts and effects. Read from the run's
 * step tags and its final world, never from a script's expectations.
 */
import { totalStarts } from '../../model/receipts/executor.ts';
import { storeBytes } from '../../model/receipts/store.ts';
import { tagCounts, type ScriptRun } from './script.ts';
import type { ReceiptsWorld } from './world.ts';

/** Cumulative counts of one run, layer by layer from the disk to the outside world. */
export interface LayerReport {
  /** Bytes in the receipt file, and its lines. */
  bytesKept: number;
  lines: number;
  /** Reads by diagnostic; `threw` when the reader raised. */
  reads: { found: number; absent: number; corrupt: number; unknownVersion: number; threw: number };
  /** Records the reads returned, by kind. */
  recordsRead: { completed: number; pending: number; none: number };
  /** Rows the reader skipped on its way, by reason. */
  skipped: { corrupt: number; unknownVersion: number };
  /** Kernel decisions. */
  decisions: { replay: number; call: number; stale: number; unavailable: number };
  callbacks: number;
  /** Dispatcher refusals by reason. */
  refusals: Record<string, number>;
  attempts: number;
  starts: number;
  effects: number;
}

/** Sums the tags that start with `prefix`. */
function sumPrefix(tags: Record<string, number>, prefix: string): number {
  let n = 0;
  for (const k of Object.keys(tags)) if (k.startsWith(prefix)) n += tags[k];
  return n;
}

/** The layer counts of a run, from step `from` on for the tag-based layers (state-based ones are cumulative). */
export function layerReport(run: ScriptRun<ReceiptsWorld>, from = 0): LayerReport {
  const t = tagCounts(run, from);
  const w = run.state;
  const n = (k: string): number => t[k] ?? 0;
  const refusals: Record<string, number> = {};
  for (const k of Object.keys(t).sort()) if (k.startsWith('refused:')) refusals[k.slice('refused:'.length)] = t[k];
  let callbacks = 0;
  for (const k of Object.keys(w.counts.callbacksByKey)) callbacks += w.counts.callbacksByKey[k];
  return {
    bytesKept: storeBytes(w.store),
    lines: w.store.lines.length,
    reads: { found: n('read:found'), absent: n('read:absent'), corrupt: n('read:corrupt'), unknownVersion: n('read:unknown-version'), threw: n('read:threw') },
    recordsRead: { completed: n('record:completed'), pending: n('record:pending'), none: n('record:none') },
    skipped: { corrupt: n('skipped:corrupt'), unknownVersion: n('skipped:unknown-version') },
    decisions: {
      replay: n('decision:replay'),
      call: sumPrefix(t, 'decision:call:'),
      stale: sumPrefix(t, 'decision:reject-stale:'),
      unavailable: n('decision:unavailable'),
    },
    callbacks,
    refusals,
    attempts: w.dispatcher.store.attempts.length,
    starts: totalStarts(w.sdk),
    effects: w.sdk.effects,
  };
}
