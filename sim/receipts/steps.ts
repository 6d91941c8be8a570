/**
 * Script steps shared by the controlled conditions and the dispatch
 * scenarios. Each is computed from the current world, so a script says
 * "damage the completion" rather than a line number it assumed.
 */
import { parseLine, type ReceiptRow } from '../../model/receipts/row.ts';
import type { TransitionSystem } from '../core/system.ts';
import { applyEnabled, settle, type ScriptRun } from './script.ts';
import type { ReceiptsEvent, ReceiptsWorld } from './world.ts';

/** A step of a script: the event to apply, decided on the world as it is. */
export type ScriptStepFn = (w: ReceiptsWorld) => ReceiptsEvent;

/** Index of the newest line written as a `kind` row for `key` (ground truth: the script knows what it wrote). */
function lineOf(w: ReceiptsWorld, key: string, kind: ReceiptRow['kind']): number {
  for (let i = w.written.length - 1; i >= 0; i--) {
    const p = parseLine(w.written[i]);
    if (p.kind === 'row' && p.row.key === key && p.row.kind === kind) return i;
  }
  throw new Error(`script: no ${kind} row was written for ${key}`);
}

/** Damage the newest `kind` receipt of `key`. */
export const damage = (key: string, kind: ReceiptRow['kind']): ScriptStepFn => (w) => ({ kind: 'damage', line: lineOf(w, key, kind) });
/** Rewrite the newest `kind` receipt of `key` to an unknown schema version. */
export const unknownVersion = (key: string, kind: ReceiptRow['kind']): ScriptStepFn => (w) => ({ kind: 'unknown-version', line: lineOf(w, key, kind) });
/** Append a torn line of an unrelated command. */
export const tornAppend: ScriptStepFn = () => ({ kind: 'torn-append' });
/** Arm the reader to throw on its next read. */
export const readerThrows: ScriptStepFn = () => ({ kind: 'reader-throws' });
/** Advance the governance revision. */
export const revisionChange: ScriptStepFn = () => ({ kind: 'revision-change' });
/** Restart the service: a fresh kernel instance with no memory. */
export const newProcess: ScriptStepFn = () => ({ kind: 'new-process' });
/** Issue a new command key. */
export const newKey: ScriptStepFn = () => ({ kind: 'new-key' });
/** Cancel the running session of `key`. */
export const cancel = (key: string): ScriptStepFn => (w) => {
  const s = w.dispatcher.store.sessions.find((x) => x.key === key && x.status === 'running');
  if (s === undefined) throw new Error(`script: no running session for ${key}`);
  return { kind: 'cancel', session: s.id };
};

/** The key of the newest issued command. */
export const newestKey = (w: ReceiptsWorld): string => w.commands[w.commands.length - 1].key;

/** Applies script steps in order. */
export function play(system: TransitionSystem<ReceiptsWorld, ReceiptsEvent>, run: ScriptRun<ReceiptsWorld>, steps: readonly ScriptStepFn[]): ScriptRun<ReceiptsWorld> {
  let r = run;
  for (const s of steps) r = applyEnabled(system, r, s(r.state));
  return r;
}

/**
 * `kernels` handlings of `key` started at once (each by the first idle
 * kernel), then every call runs to its end, interleaved in rotation.
 */
export function handleAll(
  system: TransitionSystem<ReceiptsWorld, ReceiptsEvent>,
  run: ScriptRun<ReceiptsWorld>,
  key: (w: ReceiptsWorld) => string,
  kernels = 1,
): ScriptRun<ReceiptsWorld> {
  let r = run;
  for (let i = 0; i < kernels; i++) {
    const idle = r.state.kernels.find((k) => k.inFlight === null);
    if (idle === undefined) throw new Error('script: no idle kernel');
    r = applyEnabled(system, r, { kind: 'handle', kernel: idle.id, key: key(r.state) });
  }
  return settle(system, r, ['kernel']);
}
