/**
 * A step's change of state in a few words, by the area it touched (records,
 * claims, files, broker, engines). Durable areas come first: they are what
 * survives a crash and what a reviewer reads.
 */
import type { Holding } from '../../model/broker.ts';
import type { ClaimSlot, QuarantinedFile, RecordSlot, ResultFile } from '../../model/types.ts';
import { countedKinds } from '../../sim/outbox/events/table.ts';
import { brokerReplyOf, FENCED_POST_TAG } from '../../sim/outbox/events/engine-step.ts';
import { DROPPED_TAG } from '../../sim/outbox/events/broker-keys.ts';
import type { EngineProc } from '../../sim/outbox/world.ts';
import type { StateChange, Trace, TraceStep } from '../../sim/trace-format.ts';
import type { TraceState } from './states.ts';
import { bodyCell, describeClaim, describeFile, describeRecord } from './world-view.ts';
import { idText } from '../../sim/outbox/id-shape.ts';

/** The areas of a world a change is filed under. */
export type Area = 'records' | 'claims' | 'files' | 'broker' | 'engines' | 'other';

/** One thing a step changed. */
export interface ChangeNote {
  area: Area;
  text: string;
}

/**
 * Fields left out of summaries: counters and allocators change with
 * everything, and `reported` changes only with the archive note that says it.
 */
const QUIET_FIELDS = new Set(['nextPid', 'nextGeneration', 'nextToken', 'produced', 'published', 'reported', 'crashes', 'corruptions', 'operatorActions']);

function mapOf<T>(v: unknown): Record<string, T> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, T>) : {};
}

function listOf<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

/** Ids whose entry was set or removed by a map change `{ set, del }`, in order. */
function mapKeys(change: unknown): { set: string[]; del: string[] } {
  const c = mapOf<unknown>(change);
  return { set: Object.keys(mapOf<unknown>(c.set)).sort(), del: listOf<string>(c.del) };
}

function fileKey(f: ResultFile): string {
  return `${f.id}:${f.body}:${f.generation}`;
}

/** Files in `after` that are not in `before` (arrays of files compared by id, body and generation). */
function added<T extends ResultFile>(before: T[], after: T[]): T[] {
  const seen = new Map<string, number>();
  for (const f of before) seen.set(fileKey(f), (seen.get(fileKey(f)) ?? 0) + 1);
  return after.filter((f) => {
    const n = seen.get(fileKey(f)) ?? 0;
    if (n > 0) seen.set(fileKey(f), n - 1);
    return n === 0;
  });
}

/** The engines started, gone or moved on; an engine started is said to run the new or the old rules only in a world of both (`skewed`): elsewhere "new rules" read as an upgrade. */
function engineNotes(before: EngineProc[], after: EngineProc[], skewed: boolean): ChangeNote[] {
  const notes: ChangeNote[] = [];
  const old = new Map(before.map((e) => [e.pid, e]));
  const now = new Set(after.map((e) => e.pid));
  for (const e of before) if (!now.has(e.pid)) notes.push({ area: 'engines', text: `e${e.pid} gone` });
  for (const e of after) {
    const o = old.get(e.pid);
    if (o === undefined) notes.push({ area: 'engines', text: skewed ? `e${e.pid} started (${e.version} rules)` : `e${e.pid} started` });
    else if (o.state !== e.state) notes.push({ area: 'engines', text: `e${e.pid} -> ${e.state}` });
  }
  return notes;
}

/**
 * A step's label as the renderings show it: the recorded label (replay
 * matches it, so it stays as recorded), with what the label's words do not
 * say of the step: a POST its rules fenced out was not sent, though the
 * label names the answer the world chose for it.
 */
export function shownLabel(step: TraceStep): string {
  return step.tags.includes(FENCED_POST_TAG) ? `${step.label} (not sent: fenced out)` : step.label;
}

/** What the notes of a step may look at besides its states: its tags, whether the world runs old rules beside the new, and the broker's dedupe mode. */
export interface NoteContext {
  tags?: readonly string[];
  skewed?: boolean;
  broker?: string | null;
}

/** The note context of a trace's step (`broker`: the dedupe mode of the trace's world, when its options name one). */
export function noteContextOf(trace: Trace, step: TraceStep): NoteContext {
  const options = trace.header.options;
  const broker = typeof options === 'object' && options !== null && typeof (options as { broker?: unknown }).broker === 'string' ? (options as { broker: string }).broker : null;
  return { tags: step.tags, skewed: trace.header.oldRules !== null, broker };
}

/** Why the broker dropped a POST it received, as its dedupe mode says (docs/protocol.md, 'Broker'). */
function droppedText(broker: string | null): string {
  if (broker === 'key') return 'the broker drops it: it already holds this key (it dedupes by key), and keeps what it held';
  if (broker !== null && broker.startsWith('id')) return 'the broker drops it: it already holds this id (it dedupes by id), and keeps what it held';
  return 'the broker drops it: it holds this id, or this key, already';
}

/** What one step changed, in words; `before` and `after` are the states around it. */
export function changeNotes(before: TraceState, after: TraceState, change: StateChange, context: NoteContext = {}): ChangeNote[] {
  const { tags = [], skewed = true, broker = null } = context;
  const notes: ChangeNote[] = [];
  // An accepted POST's reply is the broker's own: a duplicate answered 409 shows here, not in the answer's name.
  const reply = brokerReplyOf(tags);
  if (reply !== null) notes.push({ area: 'broker', text: `the broker replies ${reply}` });
  if (tags.includes(DROPPED_TAG)) notes.push({ area: 'broker', text: droppedText(broker) });
  // The label names the answer the world chose; the engine never sent the POST it would have answered.
  if (tags.includes(FENCED_POST_TAG)) notes.push({ area: 'other', text: 'POST not sent: the claim is gone and the rules fence the POST (no answer came)' });
  for (const field of Object.keys(change).sort()) {
    if (QUIET_FIELDS.has(field)) continue;
    switch (field) {
      case 'records': {
        const { set, del } = mapKeys(change.records);
        const now = mapOf<RecordSlot>(after.records);
        const was = mapOf<RecordSlot>(before.records);
        for (const id of set) notes.push({ area: 'records', text: `record ${idText(id)}: ${describeRecord(now[id])}${lostFields(was[id], now[id])}` });
        for (const id of del) notes.push({ area: 'records', text: `record ${idText(id)} removed` });
        break;
      }
      case 'claims': {
        const { set, del } = mapKeys(change.claims);
        const now = mapOf<ClaimSlot>(after.claims);
        for (const id of set) notes.push({ area: 'claims', text: `claim ${idText(id)}: ${describeClaim(now[id])}` });
        for (const id of del) notes.push({ area: 'claims', text: `claim ${idText(id)} released` });
        break;
      }
      case 'live': {
        const { set, del } = mapKeys(change.live);
        const now = mapOf<ResultFile>(after.live);
        for (const id of set) notes.push({ area: 'files', text: `results/${idText(id)} = ${describeFile(now[id])}` });
        for (const id of del) notes.push({ area: 'files', text: `results/${idText(id)} removed` });
        break;
      }
      case 'archived':
        for (const f of added(listOf<ResultFile>(before.archived), listOf<ResultFile>(after.archived))) {
          notes.push({ area: 'files', text: `archived ${idText(f.id)} = ${describeFile(f)} (reported delivered)` });
        }
        break;
      case 'quarantined': {
        const was = listOf<QuarantinedFile>(before.quarantined);
        const now = listOf<QuarantinedFile>(after.quarantined);
        for (const f of added(was, now)) notes.push({ area: 'files', text: `quarantined ${idText(f.id)} = ${describeFile(f)}: ${f.cause}` });
        for (const f of added(now, was)) notes.push({ area: 'files', text: `undelivered/${idText(f.id)} = ${describeFile(f)} taken out` });
        break;
      }
      case 'broker': {
        const { set, del } = mapKeys(change.broker);
        const now = mapOf<Holding>(after.broker);
        for (const id of set) notes.push({ area: 'broker', text: `broker holds ${idText(id)} = ${bodyCell(now[id].body)} (key ${idText(now[id].key)})` });
        for (const id of del) notes.push({ area: 'broker', text: `broker dropped ${idText(id)}` });
        break;
      }
      case 'engines':
        notes.push(...engineNotes(listOf<EngineProc>(before.engines), listOf<EngineProc>(after.engines), skewed));
        break;
      case 'parkedAttempts':
        notes.push({ area: 'other', text: `attempt on a parked item (${listOf<string>(after.parkedAttempts).join(', ')})` });
        break;
      case 'healing':
        if (after.healing === true) notes.push({ area: 'other', text: 'faults stop' });
        break;
      case 'clock':
        notes.push({ area: 'other', text: `clock: tick ${String(after.clock)}` });
        break;
      default:
        notes.push({ area: 'other', text: otherChange(field, before, after) });
    }
  }
  const order: Area[] = ['records', 'claims', 'files', 'broker', 'engines', 'other'];
  return notes.sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area));
}

/**
 * What a rewrite of a record took away, said beside the record: a field it
 * no longer has (a legacy rewrite drops the evidence flags, and the next
 * read fills in their defaults), or its payload (a tombstone kept by a
 * retention sweep). Listing the record as it is now hid both.
 */
function lostFields(was: RecordSlot | undefined, now: RecordSlot): string {
  if (was?.kind !== 'record' || now.kind !== 'record') return '';
  const gone = Object.keys(was.record).filter((k) => !(k in now.record) || now.record[k] === undefined);
  const payload = gone.includes('payload');
  const fields = gone.filter((k) => k !== 'payload').sort();
  const parts = [...(payload ? ['its payload dropped (a tombstone)'] : []), ...(fields.length > 0 ? [`${fields.join(', ')} removed`] : [])];
  return parts.length === 0 ? '' : `; ${parts.join('; ')}`;
}

/** A change of a field of the world no area above lists, in words (its name alone read as the tool's insides). */
function otherChange(field: string, before: TraceState, after: TraceState): string {
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  switch (field) {
    case 'parkedGone': {
      const was = new Set(listOf<string>(b.parkedGone));
      const now = listOf<string>(a.parkedGone).filter((g) => !was.has(g));
      return `a parked body replaced other than by a requeue (${now.join(', ')}): it stays parked for parked-stays-parked`;
    }
    case 'dedupe':
      return "the broker's dedupe memory changed (a dedupe window counts down)";
    case 'inTransit':
      return `POSTs in transit: ${listOf<unknown>(a.inTransit).length}`;
    case 'sweeps':
      return `retention sweeps so far: ${String(a.sweeps ?? 0)}`;
    case 'poisoned':
      return `poison bodies: ${listOf<string>(a.poisoned).join(', ')}`;
    case 'poisonCrashes':
      return `crashes a poison body caused: ${String(a.poisonCrashes ?? 0)}`;
    default:
      return `${field} changed`;
  }
}

/** True for the areas that survive a crash (the store, the files and the broker). */
export function isDurable(area: Area): boolean {
  return area === 'records' || area === 'claims' || area === 'files' || area === 'broker';
}

/** The counter tags of the outbox faults a trace flags: the world misbehaved in a way the engine does not see. */
const FLAGGED = new Set(
  countedKinds()
    .filter((k) => k.tag === 'fault' && k.hidden !== undefined)
    .map((k) => k.counter),
);

/**
 * True when a step is a fault. For the outbox, a fault of the event table the
 * engine cannot see (a refusal is an answer, an operator action is not a
 * fault); for other systems, a step the system tagged `fault:...`.
 */
export function isFaultStep(step: TraceStep, system: string): boolean {
  if (system === 'outbox') return step.tags.some((t) => FLAGGED.has(t));
  return step.tags.some((t) => t.startsWith('fault:'));
}
