/**
 * What the panels show of one outbox world: records, claims, files, the
 * broker and the engines as rows of short strings. Computed here, in typed
 * code, so the HTML page only lays rows out and the text and Markdown
 * renderers describe the same things in the same words.
 */
import type { Holding } from '../../model/broker.ts';
import type { ClaimSlot, OutboxRecord, QuarantinedFile, RecordSlot, ResultFile } from '../../model/types.ts';
import type { EngineProc } from '../../sim/outbox/world.ts';
import type { TraceState } from './states.ts';
import { bodyText, isLongText } from '../../sim/body-text.ts';
import { idText } from '../../sim/outbox/id-shape.ts';

/** One row of a panel; `key` identifies the row across steps. */
export interface Row {
  key: string;
  cells: string[];
  /** True when the row is new or different from the step before. */
  changed: boolean;
}

/** One panel: a table with a fixed set of columns. */
export interface Panel {
  columns: string[];
  rows: Row[];
}

/** The five panels of a world. */
export interface WorldView {
  records: Panel;
  claims: Panel;
  files: Panel;
  broker: Panel;
  engines: Panel;
}

/** The panel names, in display order. */
export const PANELS = ['records', 'claims', 'files', 'broker', 'engines'] as const;

const RECORD_FIELDS = new Set(['schema', 'status', 'payload', 'digest', 'attempts', 'resendEpoch', 'reason']);

function entries<T>(v: unknown): [string, T][] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return [];
  return Object.entries(v as Record<string, T>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function list<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

function show(v: unknown): string {
  if (v === undefined) return '-';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** A record's fields that no base column shows (rule-set fields, newer-schema fields). */
export function extraFields(record: OutboxRecord): string {
  return Object.keys(record)
    .filter((k) => !RECORD_FIELDS.has(k))
    .sort()
    .map((k) => `${k}=${show(record[k])}`)
    .join(' ');
}

/**
 * A body in a cell (docs/protocol.md, 'Body shapes'): as every report prints it (sim/body-text.ts); a
 * long one the page's bound already printed short (bound.ts) is left so.
 */
export function bodyCell(body: string): string {
  return isLongText(body) ? body : bodyText(body);
}

/** A record slot in a few words: `PARKED A (outcome-unknown), attempts 1, epoch 0, inFlight=false`, or `torn`. */
export function describeRecord(slot: RecordSlot): string {
  if (slot.kind === 'torn') return `torn (${JSON.stringify(slot.bytes)})`;
  const r = slot.record;
  const reason = r.reason === undefined ? '' : ` (${r.reason})`;
  const schema = r.schema === 1 ? '' : `, schema ${show(r.schema)}`;
  const extra = extraFields(r);
  // A metadata-only record has no payload.
  const payload = typeof r.payload === 'string' ? bodyCell(r.payload) : '(no payload)';
  return `${r.status} ${payload}${reason}, attempts ${show(r.attempts)}, epoch ${show(r.resendEpoch)}${schema}${extra === '' ? '' : `, ${extra}`}`;
}

/** A claim slot in a few words. */
export function describeClaim(slot: ClaimSlot): string {
  if (slot.kind === 'torn') return 'torn';
  // A lease (a world with a clock): the tick at which it expires.
  return slot.until === undefined ? `held by e${slot.owner}` : `held by e${slot.owner}, lease until tick ${slot.until}`;
}

/** A file as `B (gen 2)`. */
export function describeFile(f: ResultFile): string {
  return `${bodyCell(f.body)} (gen ${f.generation})`;
}

function recordRow(id: string, slot: RecordSlot): string[] {
  if (slot.kind === 'torn') return [idText(id), 'TORN', '-', '-', '-', '-', `bytes ${JSON.stringify(slot.bytes)}`];
  const r = slot.record;
  const schema = r.schema === 1 ? '' : `schema=${show(r.schema)} `;
  return [idText(id), r.status, typeof r.payload === 'string' ? bodyCell(r.payload) : show(r.payload), show(r.attempts), show(r.resendEpoch), show(r.reason), `${schema}${extraFields(r)}`.trim()];
}

function engineRow(e: EngineProc): string[] {
  const c = e.ctx;
  const envelope = c.envelope === null ? '-' : `${bodyCell(c.envelope.body)} (key ${idText(c.envelope.key)})`;
  const pending = c.pending === null ? '-' : String(c.pending.length);
  return [`e${e.pid}`, e.version, e.state, c.id === null ? '-' : idText(c.id), c.file === null ? '-' : describeFile(c.file), envelope, c.outcome ?? '-', pending];
}

function panel(columns: string[], rows: [string, string[]][]): Panel {
  return { columns, rows: rows.map(([key, cells]) => ({ key, cells, changed: false })) };
}

/** The panels of one world (rows unmarked: see {@link viewsOf}). */
export function worldView(state: TraceState): WorldView {
  const alive = new Set(list<EngineProc>(state.engines).map((e) => e.pid));
  const claimCells = (id: string, c: ClaimSlot): string[] =>
    c.kind === 'torn' ? [idText(id), 'torn (unreadable)', '-'] : [idText(id), `e${c.owner}`, alive.has(c.owner) ? 'alive' : 'dead (may be reclaimed)'];
  const files: [string, string[]][] = [
    ...entries<ResultFile>(state.live).map(([id, f]): [string, string[]] => [`live:${id}`, ['results/ (live)', idText(id), bodyCell(f.body), String(f.generation), '']]),
    ...list<ResultFile>(state.archived).map((f, i): [string, string[]] => [`archived:${i}`, ['archived', idText(f.id), bodyCell(f.body), String(f.generation), 'reported delivered']]),
    ...list<QuarantinedFile>(state.quarantined).map((f, i): [string, string[]] => [
      `quarantined:${i}`,
      ['undelivered/ (quarantined)', idText(f.id), bodyCell(f.body), String(f.generation), `${f.cause}; recover: ${f.recovery}`],
    ]),
  ];
  return {
    records: panel(['id', 'status', 'payload', 'attempts', 'epoch', 'reason', 'other fields'], entries<RecordSlot>(state.records).map(([id, s]) => [id, recordRow(id, s)])),
    claims: panel(['id', 'owner', 'owner process'], entries<ClaimSlot>(state.claims).map(([id, c]) => [id, claimCells(id, c)])),
    files: panel(['folder', 'id', 'body', 'generation', 'note'], files),
    broker: panel(['id', 'body', 'idempotency key'], entries<Holding>(state.broker).map(([id, h]) => [id, [idText(id), h.body, idText(h.key)]])),
    engines: panel(['engine', 'version', 'state', 'item', 'file read', 'envelope', 'outcome', 'writes pending'], list<EngineProc>(state.engines).map((e) => [`e${e.pid}`, engineRow(e)])),
  };
}

/** The panels of every state, each row marked when it is new or changed since the state before. */
export function viewsOf(states: readonly TraceState[]): WorldView[] {
  const views: WorldView[] = [];
  for (const state of states) {
    const view = worldView(state);
    const before = views[views.length - 1];
    if (before !== undefined) {
      for (const name of PANELS) {
        const old = new Map(before[name].rows.map((r) => [r.key, r.cells.join('\u0000')]));
        for (const row of view[name].rows) row.changed = old.get(row.key) !== row.cells.join('\u0000');
      }
    }
    views.push(view);
  }
  return views;
}
