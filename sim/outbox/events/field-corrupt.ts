/**
 * Field-level corruption (subsystem `fault`): one declared field of a record
 * (the checked rule set's `recordSchema`, docs/rules.md 'Record schema')
 * stored missing, of the wrong type, or torn back to an earlier value, while
 * the rest of the record reads fine. Unlike a torn record, nothing makes the
 * record unreadable: a rule set that trusts the field without checking
 * `stored.missing` / `stored.illTyped` (or reads it as if absent were zero)
 * acts on a wrong value. Shares the corruption budget with the other storage
 * faults; its swarm knob has its own stream.
 */
import { declaredFields, hasType, schemaOf, type FieldDecl } from '../../../model/schema.ts';
import type { OutboxRecord } from '../../../model/types.ts';
import type { WorldOptions } from '../options.ts';
import type { WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import { payloadAltered } from '../../../model/record.ts';
import type { WorldContext } from './context.ts';
import { stepText, weightOf, eventKind, type EventKind, type Knob } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** One declared field of the record stored missing, of the wrong type, or torn back to an earlier value. */
    'field-corrupt': { id: string; field: string; how: 'missing' | 'wrong-type' | 'earlier' };
  }
}

type FieldCorrupt = Extract<WorldEvent, { kind: 'field-corrupt' }>;
export type FieldDamage = FieldCorrupt['how'];

const weight = weightOf('field-corrupt');

/**
 * Its weight by its name, drawn from its own stream `fault:field-corrupt`;
 * on only where corruptions are allowed: a world without a corruption budget
 * never enables it, so such a world (explore's default) is still searched on
 * packed states, which do not list this kind. Added after trace format 1, so
 * it has no place in that format's `faultWeights`.
 */
const knob: Knob = {
  stream: 'fault:field-corrupt',
  weight: (options: WorldOptions) => (options.corruptionsMax > 0 ? weight(options) : 0),
  draw: 'on',
};

/**
 * The value of the wrong type a store hands back for a field: a count of 0
 * or 1 as a boolean (a TINYINT(1) column read as a boolean), a larger count
 * as a string (a BIGINT column read as a string), a flag as a number, a
 * string as a number, a history as its length.
 */
function wrongType(decl: FieldDecl, value: unknown): unknown {
  switch (decl.type) {
    case 'number':
      return value === 0 || value === 1 ? value === 1 : String(value);
    case 'boolean':
      return value === true ? 1 : 0;
    case 'string': {
      const n = Number.parseInt(String(value), 16);
      return Number.isFinite(n) ? n : String(value).length;
    }
    case 'array':
      return Array.isArray(value) ? value.length : 0;
  }
}

/**
 * An earlier value of the field, where one follows from the value itself: a
 * count one lower (a lost increment), a history without its last entry (a
 * lost append). A flag or a string has no earlier value to tear back to.
 */
function earlier(decl: FieldDecl, value: unknown): unknown {
  if (decl.type === 'number' && typeof value === 'number' && value > 0) return value - 1;
  if (decl.type === 'array' && Array.isArray(value) && value.length > 0) return value.slice(0, -1);
  return undefined;
}

/** The corruptions of `record` an event of this kind may make, in declaration order. */
function corruptions(record: OutboxRecord, ctx: WorldContext, id: string): FieldCorrupt[] {
  const out: FieldCorrupt[] = [];
  // The digest of a payload altered in the store is all that tells of it: it is not damaged too.
  const altered = payloadAltered(record);
  for (const [field, decl] of declaredFields(schemaOf(ctx.worldRules.rules))) {
    const value = record[field];
    if (value === undefined || (altered && field === 'digest')) continue;
    out.push({ kind: 'field-corrupt', id, field, how: 'missing' });
    if (hasType(value, decl.type)) out.push({ kind: 'field-corrupt', id, field, how: 'wrong-type' });
    if (earlier(decl, value) !== undefined) out.push({ kind: 'field-corrupt', id, field, how: 'earlier' });
  }
  return out;
}

/** The record with the event's damage done. */
function damaged(record: OutboxRecord, e: FieldCorrupt, ctx: WorldContext): OutboxRecord | null {
  const decl = Object.fromEntries(declaredFields(schemaOf(ctx.worldRules.rules)))[e.field];
  if (decl === undefined || record[e.field] === undefined) return null;
  if (e.how === 'missing') {
    const { [e.field]: _gone, ...rest } = record;
    return rest as OutboxRecord;
  }
  const value = e.how === 'wrong-type' ? wrongType(decl, record[e.field]) : earlier(decl, record[e.field]);
  return value === undefined ? null : { ...record, [e.field]: value };
}

export const fieldCorrupt: EventKind<FieldCorrupt> = eventKind({
  name: 'field-corrupt',
  group: 'fault',
  tag: 'fault',
  range: 'id',
  event: 'field-corrupt',
  enabled: (w, ctx, { id }) => {
    if (id === null || w.corruptions >= ctx.options.corruptionsMax || knob.weight(ctx.options) <= 0) return [];
    const slot = w.records[id];
    return slot?.kind === 'record' ? corruptions(slot.record, ctx, id) : [];
  },
  reads: ['corruptions', 'records'],
  // Corruptions are counted from 0: with no budget, or the knob off, none is ever made.
  inWorld: (ctx) => ctx.options.corruptionsMax > 0 && knob.weight(ctx.options) > 0,
  weight: (_w, ctx) => knob.weight(ctx.options),
  apply: (w, e, ctx, tags) => {
    const slot = w.records[e.id];
    const record = slot?.kind === 'record' ? damaged(slot.record, e, ctx) : null;
    if (record === null) return w;
    tags.push('fault:field-corrupt', `field-corrupt:${e.how}`);
    return withChanges(w, { records: { ...w.records, [e.id]: { kind: 'record', record } }, corruptions: w.corruptions + 1 });
  },
  label: (e) => `field-corrupt ${idText(e.id)} ${e.field} ${e.how}`,
  counter: 'fault:field-corrupt',
  draw: (e, v) => ({
    from: 'Outbox',
    to: 'Outbox',
    broken: true,
    text: stepText(v, v.label),
    note: { over: 'Outbox', text: `fault: ${e.field} of ${idText(e.id)} stored ${e.how === 'missing' ? 'missing' : e.how === 'wrong-type' ? 'with the wrong type' : 'with an earlier value'}` },
  }),
  hidden: 'one field of the record is missing, of the wrong type, or an earlier value',
  knob,
  doc: {
    example: 'field-corrupt a attempts wrong-type',
    enabled:
      "`a` has an intact record holding a field the checked rule set declares (`recordSchema`; the base ones: digest, attempts, resendEpoch); corruptions are allowed (`corruptionsMax` > 0) and left (the digest not of a payload altered in the store: nothing else would tell). One event per field and damage: `missing` (any), `wrong-type` (a field of its declared type), `earlier` (a count above 0, a non-empty history)",
    does:
      'stores the record with that one field removed; or of the wrong type (a count of 0 or 1 as a boolean, a larger count as a string, a flag as 0 or 1, a string as a number, a history as its length); or torn back (a count one lower, a history without its last entry). The rest of the record reads fine',
    stands:
      'a column lost or defaulted by a migration or a partial update, a driver that reads a TINYINT(1) count as a boolean or a BIGINT as a string, a lost increment from a racing or replayed update',
  },
});
