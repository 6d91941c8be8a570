/**
 * Record retention (subsystem `operator`): a sweeper deletes DELIVERED
 * records once their retention period has passed, within a budget of its
 * own. The model has no clock, so the period is "any time after the
 * delivery, once no engine is working on the id": a later retry, a
 * republish or an operator's replay of that id then meets no record, and the
 * outbox has lost its memory that the id was delivered. A rule set may ask
 * for a tombstone instead (`RuleSet.retention`): the record without its
 * payload, which it must then read (`recordShape`).
 *
 * Everything of it is declared here: its event, its world setting (the
 * sweeper's budget, `--retention`, 0: records are kept, drawn by the swarm
 * from a stream of its own) and the world slot it owns (sweeps so far).
 */
import type { OutboxRecord } from '../../../model/types.ts';
import type { WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import type { WorldContext } from './context.ts';
import { stepText, eventKind, type EventKind, type Setting } from './kind.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** The retention sweeper deletes the DELIVERED record of `id`. */
    sweep: { id: string };
  }
  interface World {
    /** Under record retention only (absent until the first): DELIVERED records the sweeper deleted so far. */
    sweeps?: number;
  }
}

type Sweep = Extract<WorldEvent, { kind: 'sweep' }>;

/** The sweeper's budget; 0: records are kept forever. */
const setting: Setting = {
  name: 'retention',
  flag: '--retention',
  help: {
    check: 'a retention sweeper may delete up to n DELIVERED records; 0: off (default: drawn per seed)',
    explore: 'a retention sweeper may delete up to n DELIVERED records (default 0: off)',
  },
  min: 0,
  max: 10,
  off: 0,
  stream: 'operator:retention',
  // On (1-6 sweeps) in one seed in four, drawn as the dedupe window is.
  draw: (next) => (next() < 0.75 ? 0 : 1 + Math.floor(next() * 6)),
  words: (v) => `sweepsMax=${v}`,
  banner: (v) => (v === 0 ? 'retention off' : `retention sweeps ${v}`),
};

const budgetOf = (options: WorldContext['options']): number => options.settings?.[setting.name] ?? setting.off;

export const sweep: EventKind<Sweep> = eventKind({
  name: 'sweep',
  group: 'operator',
  tag: 'operator',
  range: 'id',
  event: 'sweep',
  enabled: (w, ctx, { id }) => {
    if (id === null || (w.sweeps ?? 0) >= budgetOf(ctx.options)) return [];
    const slot = w.records[id];
    // A tombstone (no payload) has nothing left to sweep.
    if (slot?.kind !== 'record' || slot.record.status !== 'DELIVERED' || typeof slot.record.payload !== 'string') return [];
    // Past its retention period: its delivery cycle is over, no engine is on it.
    return w.engines.some((p) => p.state !== 'idle' && p.ctx.id === id) ? [] : [{ kind: 'sweep', id }];
  },
  reads: ['sweeps', 'records', 'engines'],
  // Sweeps are counted from 0: with no budget none is ever made.
  inWorld: (ctx) => !(budgetOf(ctx.options) <= 0),
  apply: (w, e, ctx, tags) => {
    const slot = w.records[e.id];
    const { [e.id]: _gone, ...records } = w.records;
    tags.push('fault:sweep');
    const sweeps = (w.sweeps ?? 0) + 1;
    if (ctx.worldRules.rules.retention === 'tombstone' && slot?.kind === 'record') {
      // The rule set asks for a tombstone: the record without its payload.
      const { payload: _payload, ...tombstone } = slot.record;
      return withChanges(w, { records: { ...w.records, [e.id]: { kind: 'record', record: tombstone as OutboxRecord } }, sweeps });
    }
    return withChanges(w, { records, sweeps });
  },
  label: (e) => `retention sweeper deletes the DELIVERED record of ${e.id}`,
  counter: 'fault:sweep',
  draw: (e, v) => ({ from: 'Operator', to: 'Outbox', broken: false, text: stepText(v, `retention: delete DELIVERED record ${e.id}`) }),
  knob: { stream: setting.stream, weight: (options) => (budgetOf(options) > 0 ? 1 : 0), draw: 'setting' },
  setting,
  slots: ['sweeps'],
  doc: {
    example: 'retention sweeper deletes the DELIVERED record of a',
    enabled: "retention is on (`--retention` N > 0, `sweepsMax=N` in the options line, fewer than N sweeps so far), `a`'s record is an intact DELIVERED record and no engine is working on `a`, before faults stop",
    does: "deletes `a`'s record, so the next file, retry or replay of `a` reads it absent; a rule set declaring `retention: 'tombstone'` keeps it without its payload instead",
    stands: 'an outbox cleanup deleting dispatched records after their retention period (NServiceBus: outbox retention expired, a message retried from the error queue executed again)',
  },
});
