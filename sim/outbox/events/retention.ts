/**
 * Record retention (subsystem `operator`): a sweeper deletes records once
 * their retention period has passed, within a budget of its own. Which
 * records it may take is the rule set's decision (`sweepable`, default: the
 * DELIVERED records that still hold their payload), asked with the clock as
 * every decision is. Without a decision that reads the clock, the period is
 * "any time after the delivery, once no engine is working on the id": a
 * later retry, a republish or an operator's replay of that id then meets no
 * record, and the outbox has lost its memory that the id was delivered. A
 * rule set may ask for a tombstone instead (`RuleSet.retention`): the record
 * without its payload, which it must then read (`recordShape`).
 *
 * The sweeper is one deployed job: under version skew it runs the checked
 * rule set's decision and retention, both versions' records alike
 * (docs/rules.md, 'Retention').
 *
 * Everything of it is declared here: its event, its world setting (the
 * sweeper's budget, `--retention`, 0: records are kept, drawn by the swarm
 * from a stream of its own) and the world slot it owns (sweeps so far).
 */
import { readSlot } from '../../../model/record.ts';
import type { RuleSet } from '../../../model/rules.ts';
import { schemaOf } from '../../../model/schema.ts';
import { TIME_ORIGIN } from '../../../model/time.ts';
import type { OutboxRecord, RecordSlot, Status } from '../../../model/types.ts';
import type { WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import { nowOf } from './clock.ts';
import type { WorldContext } from './context.ts';
import { stepText, eventKind, type EventKind, type Setting } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /**
     * The retention sweeper deletes the record of `id`, DELIVERED, or of
     * `status` where the rule set's `sweepable` takes a record of another.
     */
    sweep: { id: string; status?: Exclude<Status, 'DELIVERED'> };
  }
  interface World {
    /** Under record retention only (absent until the first): records the sweeper deleted so far. */
    sweeps?: number;
  }
}

type Sweep = Extract<WorldEvent, { kind: 'sweep' }>;

/** The sweeper's budget; 0: records are kept forever. */
const setting: Setting = {
  name: 'retention',
  flag: '--retention',
  help: {
    check: "a retention sweeper may delete up to n records (DELIVERED ones, or those the rule set's sweepable takes); 0: off (default: drawn per seed)",
    explore: "a retention sweeper may delete up to n records (DELIVERED ones, or those the rule set's sweepable takes) (default 0: off)",
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

/**
 * Whether the retention sweeper of `rules` (the checked rule set's: one
 * deployed job, under version skew too) may take the record in `slot` of
 * `id` at tick `ticks`: its `sweepable` decision, asked of a record that
 * reads as found whatever its schema (as the operator's tool reads it) and,
 * under `retention: 'tombstone'`, still holds its payload; left out, an
 * intact DELIVERED record that still holds its payload (a tombstone has
 * nothing left to sweep). The packed explorer asks the same
 * (packed/world-events.ts).
 */
export function sweptBy(rules: RuleSet, slot: RecordSlot | undefined, id: string, ticks: number): boolean {
  if (slot?.kind !== 'record') return false;
  if (rules.sweepable === undefined) return slot.record.status === 'DELIVERED' && typeof slot.record.payload === 'string';
  const read = readSlot(slot, Number.MAX_SAFE_INTEGER, rules.recordShape, schemaOf(rules));
  if (read.kind !== 'found' || (read.metadataOnly === true && rules.retention === 'tombstone')) return false;
  // The decision reads the clock as every decision does, from its origin (model/time.ts).
  return rules.sweepable(read.record, { id, now: TIME_ORIGIN + ticks, who: { pid: null, rules: rules.name, schema: rules.schemaKnown }, stored: read.stored });
}

/** The sweep of `id`'s record of `status` (its status named only when not DELIVERED). */
export function sweepOf(id: string, status: Status): Sweep {
  return status === 'DELIVERED' ? { kind: 'sweep', id } : { kind: 'sweep', id, status };
}

export const sweep: EventKind<Sweep> = eventKind({
  name: 'sweep',
  group: 'operator',
  tag: 'operator',
  range: 'id',
  event: 'sweep',
  enabled: (w, ctx, { id }) => {
    if (id === null || (w.sweeps ?? 0) >= budgetOf(ctx.options)) return [];
    const slot = w.records[id];
    if (slot?.kind !== 'record') return [];
    const rules = ctx.worldRules.rules;
    const asks = rules.sweepable !== undefined;
    // Without the decision, a look at the record (a tombstone, without payload, has nothing left to sweep).
    if (!asks && !sweptBy(rules, slot, id, 0)) return [];
    // Past its retention period: its delivery cycle is over, no engine is on it.
    if (w.engines.some((p) => p.state !== 'idle' && p.ctx.id === id)) return [];
    // The rule set's decision, asked only of an id no engine is working on.
    if (asks && !sweptBy(rules, slot, id, nowOf(w))) return [];
    return [sweepOf(id, slot.record.status)];
  },
  reads: ['sweeps', 'records', 'engines', 'clock'],
  // The clock only for a rule set whose sweeper decides (it may delete by age): a tick then leaves the listing.
  readsIn: (ctx) => (ctx.worldRules.rules.sweepable === undefined ? ['sweeps', 'records', 'engines'] : ['sweeps', 'records', 'engines', 'clock']),
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
  label: (e) => `retention sweeper deletes the ${e.status ?? 'DELIVERED'} record of ${idText(e.id)}`,
  counter: 'fault:sweep',
  draw: (e, v) => ({ from: 'Operator', to: 'Outbox', broken: false, text: stepText(v, `retention: delete ${e.status ?? 'DELIVERED'} record ${idText(e.id)}`) }),
  knob: { stream: setting.stream, weight: (options) => (budgetOf(options) > 0 ? 1 : 0), draw: 'setting' },
  setting,
  slots: ['sweeps'],
  doc: {
    example: 'retention sweeper deletes the DELIVERED record of a',
    enabled: "retention is on (`--retention` N > 0, `sweepsMax=N` in the options line, fewer than N sweeps so far), no engine is working on `a`, and `a`'s record is one the checked rule set's sweeper takes: an intact DELIVERED record by default, or one that reads as found and its `sweepable(record, { id, now, who, stored })` accepts (by status, by age: `now` is the clock), before faults stop; under version skew the checked rule set's decision (the sweeper is one deployed job)",
    does: "deletes `a`'s record, so the next file, retry or replay of `a` reads it absent; a rule set declaring `retention: 'tombstone'` keeps it without its payload instead; the label names the record's status when it is not DELIVERED (`retention sweeper deletes the PARKED record of a`)",
    stands: "an outbox cleanup deleting dispatched records after their retention period (NServiceBus: outbox retention expired, a message retried from the error queue executed again); with `sweepable`, a job deleting by status or age beyond them (Sidekiq pruning its dead set, delayed_job's `destroy_failed_jobs`, Hangfire expiring failed jobs, `DELETE ... WHERE created_at < now() - interval`)",
  },
});
