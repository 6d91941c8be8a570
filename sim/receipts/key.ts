/**
 * A canonical key for receipts worlds, built for the explorer's speed:
 * `canonicalJson` sorts every object's keys on every state, which dominated
 * the search. Here fields go in a fixed order and only the records keyed by
 * data (counts, locks) are sorted. The mapped type makes leaving a field out
 * a compile error; a test checks the key agrees with `canonicalJson`.
 */
import type { ReceiptsWorld } from './world.ts';

const sorted = (r: Record<string, number>): [string, number][] =>
  Object.keys(r)
    .sort()
    .map((k) => [k, r[k]]);

/** Equal worlds give equal keys, and different worlds different keys. */
export function worldKey(w: ReceiptsWorld): string {
  const parts: { [K in keyof ReceiptsWorld]-?: unknown } = {
    // A line equal to what was written is stored once; a damaged one with its original.
    store: w.store.lines.map((line, i) => (line === w.written[i] ? line : [line, w.written[i] ?? null])),
    written: w.written.slice(w.store.lines.length),
    revision: w.revision,
    readerThrows: w.readerThrows,
    commands: w.commands.map((c) => [c.key, c.task, c.round, c.rev]),
    kernels: w.kernels.map((k) => {
      const f = k.inFlight;
      if (f === null) return [k.id];
      if (f.via === 'counting-executor') return [k.id, 'c', f.command.key, f.command.task, f.command.round, f.command.rev];
      const c = f.call;
      return [k.id, 'd', c.command.key, c.command.task, c.command.round, c.command.rev, c.phase, c.attempt];
    }),
    dispatcher: [
      w.dispatcher.store.sessions.map((s) => [s.id, s.key, s.task, s.round, s.status]),
      w.dispatcher.store.leases.map((l) => [l.task, l.round, l.attempt]),
      w.dispatcher.store.attempts.map((a) => [a.id, a.key, a.task, a.round, a.status, a.occupied]),
      sorted(w.dispatcher.locks),
    ],
    sdk: [
      w.sdk.dedupeByKey,
      sorted(w.sdk.startsByKey),
      w.sdk.effects,
      w.sdk.executions.map((e) => [e.key, e.attempt, e.status]),
    ],
    counts: [sorted(w.counts.callbacksByKey), sorted(w.counts.refusals), w.counts.stale, w.counts.unavailable],
    handlings: w.handlings,
    faults: [
      w.faults.damage,
      w.faults.tornAppend,
      w.faults.unknownVersion,
      w.faults.readerThrows,
      w.faults.revisionChange,
      w.faults.newProcess,
      w.faults.cancel,
      w.faults.newKey,
    ],
    healing: w.healing,
  };
  return JSON.stringify(parts);
}
