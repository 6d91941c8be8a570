/**
 * Named properties of the receipts system (docs/receipts.md, 'Properties'), tagged
 * always or sometimes (named predicates). Each violation names the key
 * or task, and the layer it was measured at: a second callback is not a
 * second start, and a second start is not a second effect.
 */
import { readNewest, type Reader } from '../../model/receipts/reader.ts';
import { encodeRow, parseLine, type ReceiptRow } from '../../model/receipts/row.ts';
import { totalStarts } from '../../model/receipts/executor.ts';
import type { Property, Violation } from '../core/system.ts';
import type { ReceiptsWorld } from './world.ts';
import { countNoun } from '../count-text.ts';

function violation(property: string, subject: string, body: string, layer: string, detail: string): Violation {
  return { property, subject, body, layer, detail };
}

/** no-second-start-per-key: the SDK is started at most once per idempotency key. */
export const noSecondStartPerKey: Property<ReceiptsWorld> = {
  name: 'no-second-start-per-key',
  kind: 'always',
  description: 'the execution interface (SDK start) is called at most once for each idempotency key',
  check(w) {
    for (const key of Object.keys(w.sdk.startsByKey).sort()) {
      const n = w.sdk.startsByKey[key];
      if (n > 1) {
        const callbacks = w.counts.callbacksByKey[key] ?? 0;
        return violation('no-second-start-per-key', key, String(n), 'start',
          `key ${key} was started ${n} times by the SDK (${countNoun(callbacks, 'callback')}, ${countNoun(w.sdk.effects, 'effect')} in all)`);
      }
    }
    return null;
  },
};

/** The task a running execution belongs to, through its attempt or its command. */
function taskOf(w: ReceiptsWorld, key: string, attempt: string | null): string {
  const a = attempt === null ? undefined : w.dispatcher.store.attempts.find((x) => x.id === attempt);
  return a?.task ?? w.commands.find((c) => c.key === key)?.task ?? key;
}

/** one-running-execution-per-task: no two executions of one task run at once. */
export const oneRunningExecutionPerTask: Property<ReceiptsWorld> = {
  name: 'one-running-execution-per-task',
  kind: 'always',
  description: 'at most one execution runs for each task at any time (redispatch is serialized per task)',
  check(w) {
    const running = new Map<string, string[]>();
    for (const e of w.sdk.executions) {
      if (e.status !== 'running') continue;
      const task = taskOf(w, e.key, e.attempt);
      running.set(task, [...(running.get(task) ?? []), e.key]);
    }
    for (const task of [...running.keys()].sort()) {
      const keys = running.get(task) ?? [];
      if (keys.length > 1) {
        return violation('one-running-execution-per-task', task, keys.join(','), 'execution',
          `task ${task} has ${keys.length} executions running at once (keys ${keys.join(', ')})`);
      }
    }
    return null;
  },
};

/** The newest row written for a key, from the writers' ground truth (ignoring later damage). */
export function newestWritten(w: ReceiptsWorld, key: string): ReceiptRow | null {
  for (let i = w.written.length - 1; i >= 0; i--) {
    const p = parseLine(w.written[i]);
    if (p.kind === 'row' && p.row.key === key) return p.row;
  }
  return null;
}

/**
 * reader-diagnostic-honest, for a given reader: reading the current bytes,
 * `absent` means no row was ever written for the key, and `found` means the
 * record is the newest row written for it. So whenever damage or an unknown
 * version hides the newest row, the diagnostic says so.
 */
export function readerDiagnosticHonest(reader: Reader): Property<ReceiptsWorld> {
  return {
    name: 'reader-diagnostic-honest',
    kind: 'always',
    description: 'absent only when nothing was ever written for the key; found only when the record is the newest row written',
    check(w) {
      for (const c of w.commands) {
        const r = reader(w.store, c.key);
        const truth = newestWritten(w, c.key);
        if (r.diagnostic === 'absent' && truth !== null) {
          return violation('reader-diagnostic-honest', c.key, truth.kind, 'read',
            `the reader said absent for ${c.key} but a ${truth.kind} row was written for it`);
        }
        if (r.diagnostic === 'found' && (r.record === null || truth === null || encodeRow(r.record) !== encodeRow(truth))) {
          return violation('reader-diagnostic-honest', c.key, r.record?.kind ?? 'none', 'read',
            `the reader said found ${r.record?.kind ?? 'nothing'} for ${c.key} but the newest row written is ${truth?.kind ?? 'none'}`);
        }
      }
      return null;
    },
  };
}

/** store-keeps-bytes: lines are never removed or shortened (faults rewrite bytes in place). */
export const storeKeepsBytes: Property<ReceiptsWorld> = {
  name: 'store-keeps-bytes',
  kind: 'always',
  description: 'every line ever written is still in the file with its length',
  check(w) {
    if (w.store.lines.length !== w.written.length) {
      return violation('store-keeps-bytes', '*', '', 'bytes', `${w.written.length} lines written but ${w.store.lines.length} kept`);
    }
    for (let i = 0; i < w.written.length; i++) {
      if (w.store.lines[i].length !== w.written[i].length) {
        return violation('store-keeps-bytes', `line ${i + 1}`, '', 'bytes', `line ${i + 1} lost bytes`);
      }
    }
    return null;
  },
};

/** A `sometimes` property: reached when `goal` names a subject. */
function sometimes(name: string, description: string, layer: string, goal: (w: ReceiptsWorld) => string | null): Property<ReceiptsWorld> {
  return {
    name,
    kind: 'sometimes',
    description,
    check(w) {
      const subject = goal(w);
      return subject === null ? null : violation(name, subject, '', layer, `reached: ${description}`);
    },
  };
}

const firstKey = (w: ReceiptsWorld, p: (key: string) => boolean): string | null => w.commands.map((c) => c.key).find(p) ?? null;

/** Fault paths the runs should reach at all (sometimes properties: a fault path never taken proves nothing). */
export function receiptsReachability(): Property<ReceiptsWorld>[] {
  const reader = readNewest;
  return [
    sometimes('pending-shows-through', 'a damaged completion lets the older pending row show through', 'read', (w) =>
      firstKey(w, (k) => reader(w.store, k).record?.kind === 'pending' && newestWritten(w, k)?.kind === 'completed')),
    sometimes('damaged-store-reads-nothing', 'every receipt of a key is damaged and the reader finds nothing, saying corrupt', 'read', (w) =>
      firstKey(w, (k) => { const r = reader(w.store, k); return r.record === null && r.diagnostic === 'corrupt'; })),
    sometimes('callback-repeated-without-second-start', 'a key got a second callback but not a second start', 'callback', (w) =>
      firstKey(w, (k) => (w.counts.callbacksByKey[k] ?? 0) >= 2 && (w.sdk.startsByKey[k] ?? 0) <= 1)),
    sometimes('stale-rejected', 'the kernel rejected a stale revision', 'kernel', (w) => (w.counts.stale > 0 ? 'kernel' : null)),
    sometimes('store-unavailable', 'the reader threw and the kernel reported unavailable', 'kernel', (w) =>
      (w.counts.unavailable > 0 ? 'kernel' : null)),
    sometimes('terminal-attempt-refused', 'the attempt store found a terminal attempt by key and refused it', 'attempt', (w) =>
      ((w.counts.refusals['terminal-attempt'] ?? 0) > 0 ? 'attempt' : null)),
    sometimes('new-key-new-start', 'a new command key created a second attempt and a second start', 'start', (w) =>
      (w.dispatcher.store.attempts.length >= 2 && totalStarts(w.sdk) >= 2 ? 'task' : null)),
  ];
}

/** All receipts properties, the reader-honesty one checking `reader` (a test may hand in a broken one). */
export function receiptsProperties(reader: Reader = readNewest): Property<ReceiptsWorld>[] {
  return [noSecondStartPerKey, oneRunningExecutionPerTask, readerDiagnosticHonest(reader), storeKeepsBytes, ...receiptsReachability()];
}
