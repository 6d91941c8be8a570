/**
 * Named properties of the outbox (docs/properties.md), tagged always, sometimes
 * or eventually (named predicates). Each violation names the property,
 * the id, the body, and the layer at which the breach was seen.
 */
import { digestNames, metadataBytes } from '../../model/record.ts';
import { isPending, PARK_REASONS, STATUSES, type OutboxRecord } from '../../model/types.ts';
import { recordMetadataBytes } from './metadata-bytes.ts';
import { declaredFields, METADATA_BYTES_DEFAULT, SCHEMA_DEFAULT, type RecordSchema } from '../../model/schema.ts';
import type { Property, Violation } from '../core/system.ts';
import type { World } from './world.ts';
import { splitIdBody } from './id-body.ts';
import { bodyText } from '../body-text.ts';
import { idText } from './id-shape.ts';
import { NOT_DELIVERED_REASONS } from '../../model/quarantine.ts';

/** Default bound on a record's metadata (everything but the payload), in bytes of JSON; a rule set may state its own. */
export const RECORD_METADATA_BYTES_MAX = METADATA_BYTES_DEFAULT;

export function violation(property: string, subject: string, body: string, layer: string, detail: string): Violation {
  // The body as every report prints it (sim/body-text.ts): a megabyte's body is a few characters.
  return { property, subject, body: bodyText(body), layer, detail };
}

/** no-phantom-delivery: whatever is reported delivered, the broker holds. */
export const noPhantomDelivery: Property<World> = {
  name: 'no-phantom-delivery',
  kind: 'always',
  reads: ['records', 'broker', 'reported'],
  description: 'whenever a body is reported delivered for an id (record DELIVERED, or file archived), the broker holds that body',
  check(w) {
    return phantomSeen(w) ? phantomViolation(w) : null;
  },
};

/**
 * Whether {@link noPhantomDelivery} is violated, without sorting or allocating:
 * checked after most steps of a run; which violation it reports (the first id
 * in sorted order) is asked only when there is one.
 */
function phantomSeen(w: World): boolean {
  const records = w.records;
  const broker = w.broker;
  for (const id in records) {
    const slot = records[id];
    if (slot.kind !== 'record' || slot.record.status !== 'DELIVERED' || typeof slot.record.payload !== 'string') continue;
    const held = broker[id]?.body;
    if (held !== slot.record.payload && !namesByDigest(slot.record, held)) return true;
  }
  const reported = w.reported;
  for (const id in reported) if (broker[id]?.body !== reported[id]) return true;
  return false;
}

/**
 * Whether a record whose payload is not `held` names `held` by its digest: its
 * payload was altered in the store after the body it stands for was written
 * (alter-payload), so a DELIVERED record of it reports the body the broker
 * holds, its stored copy damaged. Asked only where payload and broker differ.
 */
function namesByDigest(record: OutboxRecord, held: string | undefined): boolean {
  return held !== undefined && digestNames(record, held);
}

/**
 * What the broker holds for `id`, in a violation's words. A consumer reads
 * a task's result under the task id, by contract
 * (docs/protocol.md, 'Envelope and idempotency key'): a rule set whose
 * envelope files the body under another result id (`v2/a`) delivered it
 * where nobody reads it, and the words say where it went rather than only
 * "nothing".
 */
export function heldText(w: World, id: string, body: string): string {
  const held = w.broker[id]?.body;
  if (held !== undefined) return bodyText(held);
  // Under a result id that is no task's (a task's own holding, the same body by chance, says nothing of where this one went).
  const elsewhere = Object.keys(w.broker).sort().find((other) => w.broker[other]?.body === body && !(other in w.records));
  return elsewhere === undefined ? 'nothing' : `nothing under ${idText(id)} (it holds ${bodyText(body)} under ${idText(elsewhere)}, the result id the envelope gave; a consumer reads a task's result under the task id)`;
}

/** {@link noPhantomDelivery}'s violation: the first in sorted order, records before the archive. */
function phantomViolation(w: World): Violation | null {
  for (const id of Object.keys(w.records).sort()) {
    const slot = w.records[id];
    // A metadata-only DELIVERED record names no body; the archive layer below still checks what was reported.
    if (slot.kind !== 'record' || slot.record.status !== 'DELIVERED' || typeof slot.record.payload !== 'string') continue;
    const held = w.broker[id]?.body;
    if (held !== slot.record.payload && !namesByDigest(slot.record, held)) {
      return violation('no-phantom-delivery', id, slot.record.payload, 'record',
        `record ${idText(id)} says DELIVERED ${bodyText(slot.record.payload)} but the broker holds ${heldText(w, id, slot.record.payload)}`);
    }
  }
  for (const id of Object.keys(w.reported).sort()) {
    const held = w.broker[id]?.body;
    if (held !== w.reported[id]) {
      return violation('no-phantom-delivery', id, w.reported[id], 'archive',
        `file ${idText(id)}=${bodyText(w.reported[id])} was archived as delivered but the broker holds ${heldText(w, id, w.reported[id])}`);
    }
  }
  return null;
}

/**
 * The bodies the producer writes for each id, in the order it writes them
 * (`bodyName` in sim/outbox/world.ts): the first `produced[id]` of an id's
 * list are the ones written so far. An id not listed is no task's.
 */
export type WrittenBodies = Readonly<Record<string, readonly string[]>>;

/**
 * delivered-as-written: the broker holds for an id only a body the producer
 * wrote for that id (and, under `--broker log`, accepted no other). It
 * compares the broker with the producer, not with the record, so a record
 * whose payload was altered (a storage fault, or a rule set that rewrites
 * payloads) and then sent is caught although the record and the broker
 * agree (docs/properties.md, 'delivered-as-written (always)').
 */
export function deliveredAsWrittenOf(written: WrittenBodies): Property<World> {
  /** Whether `body` is among the first `n` bodies written for `id`; an id that is no task's is not judged here (no-phantom-delivery says where its body went). */
  const wrote = (id: string, body: string, n: number): boolean => {
    const bodies = written[id];
    if (bodies === undefined) return true;
    const k = bodies.indexOf(body);
    return k >= 0 && k < n;
  };
  /** The first body held or accepted for `id` the producer did not write, or null (a plain loop: checked after most steps). */
  const unwritten = (w: World, id: string): string | null => {
    const h = w.broker[id];
    const n = w.produced[id] ?? 0;
    if (!wrote(id, h.body, n)) return h.body;
    const log = h.log;
    if (log !== undefined) for (let i = 0; i < log.length; i++) if (!wrote(id, log[i], n)) return log[i];
    return null;
  };
  return {
    name: 'delivered-as-written',
    kind: 'always',
    reads: ['broker', 'produced'],
    description: 'the broker holds (and, under --broker log, accepted) for an id only bodies the producer wrote for that id, whatever the record says',
    check(w) {
      let found: string | null = null;
      // The first id in sorted order, without sorting (the broker changes at many steps).
      for (const id in w.broker) if (unwritten(w, id) !== null && (found === null || id < found)) found = id;
      if (found === null) return null;
      const body = unwritten(w, found) ?? '';
      const bodies = (written[found] ?? []).slice(0, w.produced[found] ?? 0);
      return violation('delivered-as-written', found, body, 'stored',
        `the broker holds ${bodyText(body)} for ${idText(found)}, a body the producer never wrote for it (it wrote ${bodies.length === 0 ? 'nothing' : bodies.map(bodyText).join(', ')}): a payload altered in the outbox was sent, or the envelope changed the body and \`decode\` did not give it back`);
    },
  };
}

/** No bodies: {@link deliveredAsWrittenOf} judging no id (the property's name and kind for the commands' lists). */
const NO_WRITTEN: WrittenBodies = Object.freeze({});

export { NOT_DELIVERED_REASONS };

/**
 * honest-park: a PARKED record whose reason says the body was not delivered
 * (a permanent refusal, the attempts cap, a retry window that closed) never
 * stands for a body the broker holds: an operator reading such a park must
 * be able to trust it. `outcome-unknown` makes no such claim and is always
 * honest.
 */
export const honestPark: Property<World> = {
  name: 'honest-park',
  kind: 'always',
  reads: ['records', 'broker', 'quarantined'],
  description: 'a record PARKED with a reason that says the body was not delivered (permanent-refusal, max-attempts, retry-window-exhausted) never stands for a body the broker holds, nor is a file quarantined with such a cause while the broker holds its body',
  check(w) {
    return dishonestParkSeen(w) ? dishonestPark(w) : null;
  },
};

/** Whether {@link honestPark} is violated, without sorting or allocating (which violation, the first id in sorted order, is asked only when there is one). */
function dishonestParkSeen(w: World): boolean {
  const records = w.records;
  for (const id in records) {
    const slot = records[id];
    // A metadata-only PARKED record (a tombstone a retention sweeper left) names no body, as a DELIVERED one names none.
    if (slot.kind !== 'record' || slot.record.status !== 'PARKED' || typeof slot.record.payload !== 'string') continue;
    const reason = slot.record.reason;
    if (reason !== undefined && NOT_DELIVERED_REASONS.includes(reason) && w.broker[id]?.body === slot.record.payload) return true;
  }
  const quarantined = w.quarantined;
  for (let i = 0; i < quarantined.length; i++) if (quarantined[i].contradicted === true) return true;
  return false;
}

/** {@link honestPark}'s violation: the first in sorted order. */
function dishonestPark(w: World): Violation | null {
  for (const id of Object.keys(w.records).sort()) {
    const slot = w.records[id];
    if (slot.kind !== 'record' || slot.record.status !== 'PARKED' || typeof slot.record.payload !== 'string') continue;
    const reason = slot.record.reason;
    if (reason === undefined || !NOT_DELIVERED_REASONS.includes(reason)) continue;
    if (w.broker[id]?.body === slot.record.payload) {
      return violation('honest-park', id, slot.record.payload, 'record',
        `record ${idText(id)} is PARKED ${reason} for ${bodyText(slot.record.payload)} but the broker holds ${bodyText(slot.record.payload)}`);
    }
  }
  // A file quarantined with a cause that says not delivered while the broker held its body (noted as it was quarantined:
  // engine-step.ts): the first in the order quarantined. Layer `file`: what an operator reads in undelivered/.
  const q = w.quarantined.find((f) => f.contradicted === true);
  if (q !== undefined) {
    return violation('honest-park', q.id, q.body, 'file',
      `file ${idText(q.id)}=${bodyText(q.body)} was quarantined as ${JSON.stringify(q.cause)}, a cause that says it was not delivered, while the broker held ${bodyText(q.body)}`);
  }
  return null;
}

/** Where a published body is still visible to an operator, or null. */
export function visibility(w: World, id: string, body: string): string | null {
  if (w.broker[id]?.body === body) return 'broker';
  if (w.live[id]?.body === body) {
    return w.claims[id]?.kind === 'torn' ? 'live (torn claim)' : 'live';
  }
  if (w.quarantined.some((q) => q.id === id && q.body === body)) return 'quarantined';
  const slot = w.records[id];
  // An unreadable record is held for the operator under a named cause.
  if (slot?.kind === 'torn') return 'corrupt record';
  if (slot?.kind === 'record' && slot.record.schema > 1) return 'record of a newer schema';
  if (slot?.kind === 'record' && typeof slot.record.payload === 'string') {
    const { payload, status } = slot.record;
    // A payload altered in the store (alter-payload): a record not DELIVERED that names the body by its
    // digest holds it behind a named cause, as a torn record does. A DELIVERED one says it went out.
    if (payload !== body && status !== 'DELIVERED' && digestNames(slot.record, body)) return 'damaged payload';
  }
  if (slot?.kind === 'record' && slot.record.payload === body) {
    if (slot.record.status === 'PARKED') return 'parked';
    if (isPending(slot.record.status) && w.claims[id]?.kind === 'torn') return `${slot.record.status.toLowerCase()} (torn claim)`;
  }
  return null;
}

/** no-silent-loss: once quiet, every published body is at the broker or visible to an operator. */
export const noSilentLoss: Property<World> = {
  name: 'no-silent-loss',
  kind: 'eventually',
  description: 'once quiet, every body that reached the outbox is held by the broker or visible (live, quarantined, parked, or held behind a named cause)',
  check(w) {
    for (const pub of w.published) {
      const [id, body] = splitIdBody(pub);
      if (visibility(w, id, body) === null) {
        const held = w.broker[id]?.body;
        // A body its record still holds as pending is not gone: no engine will ever send it (the world is quiet).
        const slot = w.records[id];
        const stranded = slot?.kind === 'record' && slot.record.payload === body && isPending(slot.record.status);
        const what = stranded ? `is stranded: its record holds it ${slot.record.status}, but no engine will send it (the world is quiet and waits for nothing)` : 'is gone';
        return violation('no-silent-loss', id, body, 'files+records+broker',
          `${idText(id)}=${bodyText(body)} ${what}: not at the broker (holds ${held === undefined ? 'nothing' : bodyText(held)}), not live, quarantined or parked`);
      }
    }
    return null;
  },
};

/**
 * settled-after-healing (liveness): once faults stop and the system is quiet,
 * no file is left in silence: every live file is held behind a named cause
 * (a torn claim). With no-silent-loss this says every body ends at the
 * broker, parked, quarantined, or behind a named cause; a file merely left
 * live is not an end state.
 */
export const settledAfterHealing: Property<World> = {
  name: 'settled-after-healing',
  kind: 'eventually',
  description: 'once quiet after faults stop, no file is merely left live: each live file is held behind a named cause (a torn claim)',
  check(w) {
    for (const id of Object.keys(w.live).sort()) {
      const f = w.live[id];
      if (w.claims[id]?.kind !== 'torn') {
        return violation('settled-after-healing', id, f.body, 'files', `file ${idText(id)}=${bodyText(f.body)} is still live with no named cause after the system went quiet`);
      }
    }
    return null;
  },
};

/**
 * parked-stays-parked, per body: no POST of a body that was parked unless an
 * operator requeued it, whatever happened to the record since (a fresh cycle,
 * a rebuilt record): the world notes such POSTs in `parkedAttempts`.
 */
export const parkedStaysParked: Property<World> = {
  name: 'parked-stays-parked',
  kind: 'always',
  reads: ['parkedAttempts', 'records'],
  description: 'no POST is made of a body that was parked and not requeued since (while its record says PARKED, or after the parked record was replaced)',
  check(w) {
    const id = w.parkedAttempts[0];
    if (id === undefined) return null;
    const slot = w.records[id];
    const body = slot?.kind === 'record' ? (slot.record.payload ?? '') : '';
    return violation('parked-stays-parked', id, body, 'post', `a POST was made for ${idText(id)} of a body parked and not requeued since`);
  },
};

/**
 * retries-deduped: under a broker that dedupes by idempotency key
 * (`--broker key`), a retry is not a second effect. The world notes a store
 * of the same body for an id under another key, where neither the broker's
 * forgetting nor an operator's action explains it (events/rekeyed.ts); any
 * such note is a violation.
 */
export const retriesDeduped: Property<World> = {
  name: 'retries-deduped',
  kind: 'always',
  reads: ['broker'],
  description: 'under a broker that dedupes by idempotency key (--broker key), no POST stores a body again for an id that holds it under another key, unless the broker forgot the id or an operator acted (a requeue starts a new key)',
  check(w) {
    let found: string | null = null;
    // The first id in sorted order, without sorting (the broker changes at many steps).
    for (const id in w.broker) if (w.broker[id].rekeyed === true && (found === null || id < found)) found = id;
    if (found === null) return null;
    const h = w.broker[found];
    return violation('retries-deduped', found, h.body, 'stored', `the broker, deduping by key, stored ${bodyText(h.body)} for ${idText(found)} again under key ${idText(h.key)}: a retry that carried a new key, so the dedupe the key was for did not happen`);
  },
};

/**
 * exclusive-attempt: only the holder of the current claim attempts, so no two
 * engines have POSTed for one id with neither outcome yet written.
 */
export const exclusiveAttempt: Property<World> = {
  name: 'exclusive-attempt',
  kind: 'always',
  reads: ['engines'],
  description: 'no two engines have an attempt in flight (POSTed, not yet completed) for the same id',
  check(w) {
    // Checked on nearly every state of a search: a pairwise scan of the few engines allocates nothing.
    const engines = w.engines;
    for (let b = 0; b < engines.length; b++) {
      const e = engines[b];
      if (e.state !== 'completing' || e.ctx.id === null) continue;
      for (let a = 0; a < b; a++) {
        const other = engines[a];
        if (other.state === 'completing' && other.ctx.id === e.ctx.id) {
          return violation('exclusive-attempt', e.ctx.id, e.ctx.envelope?.body ?? '', 'claim',
            `engines e${other.pid} and e${e.pid} both have an attempt in flight for ${idText(e.ctx.id)}`);
        }
      }
    }
    return null;
  },
};

/** The histories a schema caps: each array field that states `maxEntries`, with its cap. */
function cappedHistories(schema: RecordSchema): [string, number][] {
  const out: [string, number][] = [];
  for (const [name, decl] of declaredFields(schema)) if (decl.type === 'array' && decl.maxEntries !== undefined) out.push([name, decl.maxEntries]);
  return out;
}

/**
 * bounded-record: a record's metadata stays under the bound its rule set
 * states (`recordSchema.metadataBytesMax`, default 256 bytes), and each
 * history it caps (an array field with `maxEntries`) holds at most that many
 * entries: the cap a rule set states is the cap it is held to.
 */
export function boundedRecordOf(schema: RecordSchema): Property<World> {
  const max = schema.metadataBytesMax ?? RECORD_METADATA_BYTES_MAX;
  const caps = cappedHistories(schema);
  const capsText = caps.map(([name, cap]) => `${name} at most ${cap} entries`).join(', ');
  /** Whether one stored record is within the bounds (a record's verdict depends on it alone). */
  const within = (record: OutboxRecord): boolean => {
    if (recordMetadataBytes(record) > max) return false;
    for (const [name, cap] of caps) {
      const history = record[name];
      if (Array.isArray(history) && history.length > cap) return false;
    }
    return true;
  };
  /**
   * The last records found within bounds: after a step, only the slots that are no
   * longer the same objects as there are measured again (records are immutable, and
   * most steps change one id's record or none). A cache only: any records may be asked.
   */
  let lastWithin: World['records'] | null = null;
  const seen = (w: World): boolean => {
    const records = w.records;
    const before = lastWithin;
    for (const id in records) {
      const slot = records[id];
      if (slot.kind !== 'record' || (before !== null && before[id] === slot)) continue;
      if (!within(slot.record)) return true;
    }
    lastWithin = records;
    return false;
  };
  return {
    name: 'bounded-record',
    kind: 'always',
    reads: ['records'],
    description: `a record's metadata stays under ${max} bytes however many cycles an id goes through${caps.length === 0 ? '' : `, and each capped history stays within its cap (${capsText})`}`,
    check(w) {
      if (!seen(w)) return null;
      // Which record breaks the bound (the first id in sorted order), and by how much: asked only when one does.
      for (const id of Object.keys(w.records).sort()) {
        const slot = w.records[id];
        if (slot.kind !== 'record') continue;
        const bytes = metadataBytes(slot.record);
        if (bytes > max) {
          return violation('bounded-record', id, slot.record.payload ?? '', 'record', `record ${idText(id)} metadata is ${bytes} bytes (bound ${max})`);
        }
        for (const [name, cap] of caps) {
          const history = slot.record[name];
          if (Array.isArray(history) && history.length > cap) {
            return violation('bounded-record', id, slot.record.payload ?? '', 'record', `record ${idText(id)} keeps ${history.length} entries in ${name} (its rule set caps it at ${cap})`);
          }
        }
      }
      return null;
    },
  };
}

/** bounded-record for a rule set that declares no schema (256 bytes, no capped history). */
export const boundedRecord: Property<World> = boundedRecordOf(SCHEMA_DEFAULT);

/**
 * Every status and every park reason a record can have, each a `sometimes`
 * property: one no run reached is a kind of record nothing was shown about,
 * and the report says so (docs/properties.md, 'reached:* (sometimes)').
 */
export const STATUSES_REACHED: readonly Property<World>[] = [...STATUSES.map((s) => statusReached(s)), ...PARK_REASONS.map((r) => statusReached('PARKED', r))];

function statusReached(status: string, reason?: string): Property<World> {
  const name = reason === undefined ? `reached:${status}` : `reached:${status}:${reason}`;
  return {
    name,
    kind: 'sometimes',
    reads: ['records'],
    description: `some record is ${status}${reason ? ` (${reason})` : ''}`,
    check(w) {
      // In the order of Object.keys (a plain object's own keys), without listing them.
      const records = w.records;
      for (const id in records) {
        const slot = records[id];
        if (slot.kind === 'record' && slot.record.status === status && (reason === undefined || slot.record.reason === reason)) {
          return violation(name, id, slot.record.payload ?? '', 'record', 'reached');
        }
      }
      return null;
    },
  };
}

/**
 * at-most-once (opt-in, `--property at-most-once`): no body reaches the
 * broker's consumer twice. For users whose consumer is not idempotent;
 * at-least-once designs stay legal by default. It reads the broker's log, so
 * it sees duplicates under `--broker log` (other modes keep no history).
 */
export const atMostOnce: Property<World> = {
  name: 'at-most-once',
  kind: 'always',
  reads: ['broker'],
  description: 'opt-in: no body is accepted twice by the broker for an id (seen under --broker log, which keeps every accepted POST)',
  check(w) {
    for (const id of Object.keys(w.broker).sort()) {
      const log = w.broker[id].log;
      if (log === undefined) continue;
      const twice = log.find((b, i) => log.indexOf(b) !== i);
      if (twice !== undefined) {
        return violation('at-most-once', id, twice, 'stored', `the broker accepted ${bodyText(twice)} for ${idText(id)} ${log.filter((b) => b === twice).length} times (log ${log.map(bodyText).join(',')})`);
      }
    }
    return null;
  },
};

/** The opt-in properties by name (`--property`). */
export const OPT_IN_PROPERTIES = ['at-most-once'] as const;

/**
 * Every property of the outbox, safety first; `withAtMostOnce` adds the
 * opt-in at-most-once; `schema`, the checked rule set's, states the bounds
 * bounded-record holds it to; `written`, the bodies the world's producer
 * writes per id, is what delivered-as-written compares the broker with
 * (without it, the property judges no id: the lists of names).
 */
export function outboxProperties(withAtMostOnce = false, schema: RecordSchema = SCHEMA_DEFAULT, written: WrittenBodies = NO_WRITTEN): Property<World>[] {
  // Long bodies (docs/protocol.md, 'Body shapes') are not made into a key: a megabyte's key per seed, kept for ever.
  if (Object.values(written).some((bodies) => bodies.some((b) => b.length > LONG_KEY_CHARS))) return propertiesOf(withAtMostOnce, schema, written);
  let bySchema = PROPERTIES.get(schema);
  if (bySchema === undefined) {
    bySchema = new Map();
    PROPERTIES.set(schema, bySchema);
  }
  const key = `${withAtMostOnce ? 1 : 0}${JSON.stringify(written)}`;
  let properties = bySchema.get(key);
  if (properties === undefined) {
    properties = Object.freeze(propertiesOf(withAtMostOnce, schema, written));
    bySchema.set(key, properties);
  }
  // A copy of the shared list: a caller may change its own; the properties themselves are shared.
  return [...properties];
}

/** The longest body a world's properties are remembered by. */
const LONG_KEY_CHARS = 256;

/**
 * The properties built once per schema, per at-most-once and per world's bodies (a few): `check` builds a
 * system per seed, and the seed runner prepares each property list once (fast-run.ts).
 */
const PROPERTIES = new WeakMap<RecordSchema, Map<string, readonly Property<World>[]>>();

function propertiesOf(withAtMostOnce: boolean, schema: RecordSchema, written: WrittenBodies): Property<World>[] {
  return [
    noPhantomDelivery,
    ...(withAtMostOnce ? [atMostOnce] : []),
    deliveredAsWrittenOf(written),
    honestPark,
    parkedStaysParked,
    exclusiveAttempt,
    retriesDeduped,
    schema === SCHEMA_DEFAULT ? boundedRecord : boundedRecordOf(schema),
    noSilentLoss,
    settledAfterHealing,
    ...STATUSES_REACHED,
  ];
}
