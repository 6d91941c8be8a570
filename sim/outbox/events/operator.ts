/**
 * A person's actions (subsystem `operator`), within the world's operator
 * budget. Not failures, but moves an engine must survive at any point, so
 * the world takes them like any event; the report lists them apart from the
 * faults.
 */
import { readSlot } from '../../../model/record.ts';
import type { WorldEvent } from '../world.ts';
import { stepText, type EventKind } from './kind.ts';

type Requeue = Extract<WorldEvent, { kind: 'requeue' }>;
type Restore = Extract<WorldEvent, { kind: 'restore' }>;

function requeueKind(reset: boolean): EventKind<Requeue> {
  const name = reset ? 'requeue-reset' : 'requeue';
  return {
    name,
    group: 'operator',
    tag: 'operator',
    range: 'id',
    event: 'requeue',
    owns: (e) => e.reset === reset,
    enabled: (w, ctx, { id }) => {
      if (id === null || w.operatorActions >= ctx.options.operatorActionsMax) return [];
      const slot = w.records[id];
      return slot?.kind === 'record' && slot.record.status === 'PARKED' ? [{ kind: 'requeue', id, reset }] : [];
    },
    apply: (w, e, ctx, tags) => {
      const slot = w.records[e.id];
      if (slot?.kind !== 'record') return w;
      // The operator's tool reads the record whatever its schema, a legacy one with its missing fields
      // filled in: given as stored, it lacked the resendEpoch a requeue adds to, and NaN was written back.
      const read = readSlot(slot, Number.MAX_SAFE_INTEGER);
      const record = ctx.worldRules.rules.requeue(read.kind === 'found' ? read.record : slot.record, e.reset);
      tags.push(`fault:${name}`);
      return { ...w, records: { ...w.records, [e.id]: { kind: 'record', record } }, operatorActions: w.operatorActions + 1 };
    },
    label: (e) => `operator requeue ${e.id}${e.reset ? ' (reset attempts)' : ''}`,
    counter: `fault:${name}`,
    draw: (e, v) => ({ from: 'Operator', to: 'Outbox', broken: false, text: stepText(v, `requeue ${e.id}${e.reset ? ' (reset attempts)' : ''}`) }),
    knob: null,
    doc: {
      example: `operator requeue a${reset ? ' (reset attempts)' : ''}`,
      enabled: "`a`'s record is an intact PARKED record",
      does: reset ? "writes what the checked rule set's `requeue` returns, with attempts reset to 0" : "writes what the checked rule set's `requeue` returns, attempts kept",
      stands: reset ? 'a person retrying with a fresh attempt budget' : 'a person retrying a held item',
    },
  };
}

export const requeue = requeueKind(false);
export const requeueReset = requeueKind(true);

export const restore: EventKind<Restore> = {
  name: 'restore',
  group: 'operator',
  tag: 'operator',
  range: 'world',
  event: 'restore',
  enabled: (w, ctx) => {
    if (w.operatorActions >= ctx.options.operatorActionsMax) return [];
    const out: Restore[] = [];
    w.quarantined.forEach((q, index) => {
      if (w.live[q.id] === undefined) out.push({ kind: 'restore', index });
    });
    return out;
  },
  apply: (w, e, _ctx, tags) => {
    const q = w.quarantined[e.index];
    const quarantined = w.quarantined.filter((_, i) => i !== e.index);
    tags.push('fault:restore');
    return {
      ...w,
      quarantined,
      live: { ...w.live, [q.id]: { id: q.id, body: q.body, generation: w.nextGeneration } },
      nextGeneration: w.nextGeneration + 1,
      operatorActions: w.operatorActions + 1,
    };
  },
  label: (e) => `operator restore quarantined #${e.index}`,
  counter: 'fault:restore',
  draw: (e, v) => ({ from: 'Operator', to: 'Producer', broken: false, text: stepText(v, `restore quarantined #${e.index} into results/`) }),
  knob: null,
  doc: {
    example: 'operator restore quarantined #0',
    enabled: 'a file is in `undelivered/` and its id has no live file',
    does: 'moves it back into `results/` as a new generation',
    stands: 'a person putting a quarantined result back for delivery',
  },
};
