/**
 * A stored payload altered but still readable (subsystem `fault`): an intact
 * record's payload replaced by a readable string no producer writes, every
 * other field kept, its digest included. Unlike a torn record nothing fails
 * to parse, and unlike field-corrupt no declared field looks wrong: only the
 * digest, compared with the payload, tells (docs/faults.md, 'Not in the menu today').
 * Shares the corruption budget with the other storage faults; its swarm knob
 * has its own stream.
 */
import { payloadIntact } from '../../../model/record.ts';
import type { OutboxRecord } from '../../../model/types.ts';
import type { WorldOptions } from '../options.ts';
import type { WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import { stepText, weightOf, eventKind, type EventKind, type Knob } from './kind.ts';
import { idText } from '../id-shape.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** An intact record's payload replaced by a readable altered string, its digest kept. */
    'alter-payload': { id: string };
  }
}

type AlterPayload = Extract<WorldEvent, { kind: 'alter-payload' }>;

const weight = weightOf('alter-payload');

/**
 * Its weight by its name, drawn from its own stream `fault:alter-payload`;
 * on only where corruptions are allowed, as field-corrupt's: explore's
 * default world (no corruption budget) never enables it. Added after trace
 * format 1, so it has no place in that format's `faultWeights`.
 */
const knob: Knob = {
  stream: 'fault:alter-payload',
  weight: (options: WorldOptions) => (options.corruptionsMax > 0 ? weight(options) : 0),
  draw: 'on',
};

/**
 * The payload as a store that rewrites it hands it back: readable ASCII, of
 * another digest, and never a body the producer writes (its bodies are
 * upper-case letters, `bodyName` in sim/outbox/world.ts): the body folded to
 * lower case, as a case- or charset-converting column does, or, where that
 * changes nothing, with a `?` where a character could not be converted.
 */
export function alteredPayload(payload: string): string {
  const lower = payload.toLowerCase();
  return lower !== payload ? lower : `${payload}?`;
}

export const alterPayload: EventKind<AlterPayload> = eventKind({
  name: 'alter-payload',
  group: 'fault',
  tag: 'fault',
  range: 'id',
  event: 'alter-payload',
  enabled: (w, ctx, { id }) => {
    if (id === null || w.corruptions >= ctx.options.corruptionsMax || knob.weight(ctx.options) <= 0) return [];
    const slot = w.records[id];
    return slot?.kind === 'record' && payloadIntact(slot.record) ? [{ kind: 'alter-payload', id }] : [];
  },
  reads: ['corruptions', 'records'],
  // Corruptions are counted from 0: with no budget, or the knob off, none is ever made.
  inWorld: (ctx) => ctx.options.corruptionsMax > 0 && knob.weight(ctx.options) > 0,
  weight: (_w, ctx) => knob.weight(ctx.options),
  apply: (w, e, _ctx, tags) => {
    const slot = w.records[e.id];
    if (slot?.kind !== 'record' || typeof slot.record.payload !== 'string') return w;
    tags.push('fault:alter-payload');
    const record: OutboxRecord = { ...slot.record, payload: alteredPayload(slot.record.payload) };
    return withChanges(w, { records: { ...w.records, [e.id]: { kind: 'record', record } }, corruptions: w.corruptions + 1 });
  },
  label: (e) => `alter-payload ${idText(e.id)}`,
  counter: 'fault:alter-payload',
  draw: (e, v) => ({
    from: 'Outbox',
    to: 'Outbox',
    broken: true,
    text: stepText(v, v.label),
    note: { over: 'Outbox', text: `fault: the payload of ${idText(e.id)} stored altered (still readable), its digest kept` },
  }),
  hidden: 'the record\'s payload is altered but readable; its digest still names the body written',
  knob,
  doc: {
    example: 'alter-payload a',
    enabled:
      '`a` has an intact record whose payload is the one its digest names (a record altered once is not altered again); corruptions are allowed (`corruptionsMax` > 0) and left',
    does:
      'stores the record with its payload replaced by a readable string no producer writes (the body in lower case: `A` becomes `a`), every other field kept, the digest included, so the digest no longer matches the payload',
    stands:
      'a column that truncates silently, a charset or collation conversion, a buggy migration that rewrites payloads: the row reads fine and holds another body',
  },
});
