/**
 * A rule set is an engine version: the decisions of docs/rules.md as pure
 * functions over plain data. The lifecycle statechart (`lifecycle.ts`) asks
 * these through its guards and actions; nothing else in the project decides
 * what an engine does.
 */
import type { RecordShape } from './record.ts';
import { recordSchemaProblem, type RecordSchema } from './schema.ts';
import { TIME_ORIGIN, type FencedWrite, type TimeView } from './time.ts';
import { isPending } from './types.ts';
import type {
  ClaimView,
  Envelope,
  OutboxRecord,
  Outcome,
  RecordRead,
  Reply,
  ResultFile,
  StoredFields,
} from './types.ts';

/**
 * Who takes a decision: the engine process and the rule set it runs, so that
 * a rule can stamp which engine or which version took an attempt.
 */
export interface Who {
  /** The engine's process id (never reused). */
  pid: number;
  /** The name of the engine's rule set. */
  rules: string;
  /** The record schema version its rule set writes and understands (`schemaKnown`). */
  schema: number;
}

/**
 * Who takes an operator's decision (`requeue`): the rule set of the tool that
 * executes it, which under version skew may be the old one. No engine process
 * runs it, so `pid` is null.
 */
export interface OperatorWho {
  pid: null;
  rules: string;
  schema: number;
}

/** What an engine's decision sees besides its arguments (always given by the world): who decides, and when. */
export interface DecisionView extends TimeView {
  who: Who;
  /**
   * The record as stored, and which declared fields it lacked or held with
   * another type (the record argument has their defaults): absent is not
   * zero (docs/rules.md, 'Record schema'). Given by the world to `preSend`
   * and `complete`.
   */
  stored?: StoredFields;
  /**
   * The engine's limits (`attemptsMax`), given by the world to `preSend`: a
   * rule that counts started sends parks past its cap instead of sending
   * (docs/rules.md, 'The decisions').
   */
  limits?: EngineLimits;
}

/** What `publish` sees: the body on offer, how the record read, and the id's claim now. */
export interface AdmitView extends TimeView {
  id: string;
  body: string;
  read: RecordRead;
  /**
   * The id's claim as this engine sees it: free, held (by itself, or by
   * another engine, alive or dead), or torn. A claim held by a live engine
   * may mean an attempt is in flight.
   */
  claim: ClaimView;
  who: Who;
}

/**
 * What `mayClaim` sees besides the claim: the id, the READY record the
 * engine would work on (a heartbeat or an owner a rule set stamps on it, as
 * a row lease keeps one), the clock and who decides. Always given by the
 * world; optional only so that a rule may call another rule set's decision
 * without it.
 */
export interface ClaimDecisionView extends TimeView {
  id: string;
  record: OutboxRecord;
  who: Who;
}

/** What `selectable` sees besides the record (`now`: a retry schedule selects by time). */
export interface SelectView extends TimeView {
  id: string;
  who: Who;
}

/** Which operator action asks `requeue`. */
export type OperatorAction =
  /** Retry a PARKED record. */
  | 'requeue'
  /** Send again a READY record, whether or not an engine holds its claim (an attempt may be in flight). */
  | 'resubmit';

/** What `requeue` sees besides the record: which action, the claim now, and who executes it. */
export interface RequeueView extends TimeView {
  /** The task id acted on (a requeue that rebuilds a key stored on the record, say, from the id). */
  id: string;
  action: OperatorAction;
  /** The id's claim now, as no engine holds it (`mine` is false). */
  claim: ClaimView;
  who: OperatorWho;
  /** The record as stored, and which declared fields it lacked or held with another type (docs/rules.md, 'Record schema'). */
  stored?: StoredFields;
}

/**
 * What the retention sweeper's `sweepable` sees besides the record: the id,
 * the clock, the record as stored (which declared fields it lacked or held
 * with another type: docs/rules.md, 'Record schema') and the rule set of
 * the sweeper, a deployed job no engine process runs (`pid` null): the
 * checked rule set's, under version skew too.
 */
export interface SweepView extends TimeView {
  id: string;
  who: OperatorWho;
  stored: StoredFields;
}

/** The publish decision. */
export type Admission =
  /** Write this record (a new one, or a rebuilt fresh cycle), then drain it. */
  | { kind: 'write'; record: OutboxRecord }
  /** The record already carries this body: drain it as it is. */
  | { kind: 'keep' }
  /** Move the file to `undelivered/` with a named cause; never send it. */
  | { kind: 'quarantine'; cause: string }
  /** Leave the file live for a later pass. */
  | { kind: 'leave' };

/** What the gateway sees when it disposes of the file it read. */
export interface DisposeView extends TimeView {
  /** The file generation this pass read. */
  file: ResultFile;
  /** The live file for the id now (it may have been replaced meanwhile). */
  live: ResultFile | null;
  /** The record now. */
  read: RecordRead;
  /** The envelope this pass POSTed, if any. */
  sent: Envelope | null;
  /** How this pass classified the reply, if it POSTed. */
  outcome: Outcome | null;
  who: Who;
}

/** The gateway's disposal of a file. */
export type Disposal =
  | { kind: 'archive'; file: ResultFile }
  | { kind: 'quarantine'; file: ResultFile; cause: string }
  | { kind: 'leave' };

/** Limits an engine is started with. */
export interface EngineLimits {
  attemptsMax: number;
}

/** The decisions a rule set makes (docs/rules.md, 'The decisions'). */
export interface RuleDecisions {
  /** Highest record schema version this engine understands. */
  schemaKnown: number;
  /**
   * The shape of the records it writes and accepts (default: a payload is
   * required). `{ payload: 'optional' }` declares metadata-only records legal:
   * one without a payload reads as `found` with `metadataOnly: true`, not as
   * `corrupt`, and the decisions' contracts accept records without one.
   */
  recordShape?: RecordShape;
  /**
   * What the retention sweeper leaves of a DELIVERED record once its
   * retention period has passed (docs/faults.md, `sweep`): `delete` (the
   * default) removes it, so a later file, retry or replay of the id reads it
   * absent; `tombstone` keeps it without its payload (needs
   * `recordShape: { payload: 'optional' }` to read as found).
   */
  retention?: 'delete' | 'tombstone';
  /**
   * Which intact records the retention sweeper may take once no engine is
   * working on their id (optional; default: a DELIVERED record that still
   * holds its payload). Asked of every record that reads as found (whatever
   * its schema, as the operator's tool reads it), given as read with the
   * defaults filled in and `view.stored`; under `retention: 'tombstone'` not
   * of a record already without payload (nothing is left to take). A real
   * cleanup job's `DELETE ... WHERE status = 'DELIVERED'`, or `WHERE
   * created_at < now() - interval` whatever the status.
   * See docs/rules.md, 'Retention'.
   */
  sweepable?(record: OutboxRecord, view: SweepView): boolean;
  /**
   * The record schema it declares (default `SCHEMA_DEFAULT`: the base fields
   * digest, attempts and resendEpoch, version 1, unknown fields kept, 256
   * bytes of metadata): the fields it adds (type, the version that
   * introduced it, default when absent), what its engines do with fields
   * they do not know when they rewrite a record, and the bounds its records
   * keep (docs/rules.md, 'Record schema').
   */
  recordSchema?: RecordSchema;
  /** Whether `publish` admits a body for an id, given how its record read. */
  admit(view: AdmitView): Admission;
  /**
   * Whether the engine selects a pending record (READY or QUEUED) to work on
   * (optional; default: every pending record). Asked only of pending
   * records, whenever the engine would start or continue an attempt on one:
   * a record it does not select is left as it is, unclaimed and unsent, as
   * `SELECT ... WHERE attempts < 50` (or `WHERE status = 'READY'`: a rule
   * set whose QUEUED records wait for something else leaves them out).
   */
  selectable?(record: OutboxRecord, view: SelectView): boolean;
  /**
   * Whether to take a claim as seen (free, held by a live or dead owner,
   * torn). In a world with leases a held claim also says whether its lease
   * has expired (`expired`): a rule may take such a claim although its
   * holder lives on (docs/rules.md, 'Time').
   */
  mayClaim(claim: ClaimView, view?: ClaimDecisionView): boolean;
  /**
   * An optional durable write before the POST; null when the rule writes nothing.
   * A PARKED record (with a `reason`) parks instead of sending: the engine
   * writes it and does not POST; the attempt ends as after a completion that
   * parks (the claim released, the file disposed of).
   * `view` (who decides, and the engine's limits) is always given by the world; it is optional only so
   * that a rule may call another rule set's decision without it.
   */
  preSend(record: OutboxRecord, view?: DecisionView): OutboxRecord | null;
  /** The envelope for the record's current cycle. */
  envelope(id: string, record: OutboxRecord): Envelope;
  /** How a reply is understood. */
  classify(reply: Reply): Outcome;
  /** The record writes that complete an attempt, in order (each is its own durable step). */
  complete(record: OutboxRecord, outcome: Outcome, limits: EngineLimits, view?: DecisionView): OutboxRecord[];
  /**
   * What an operator's action writes: a requeue of a PARKED record, or a
   * resubmit of a READY one (`view.action`), run with the rules of the tool
   * that executes it (`view.who`).
   */
  requeue(record: OutboxRecord, resetAttempts: boolean, view?: RequeueView): OutboxRecord;
  /** How the gateway disposes of the file it read. */
  dispose(view: DisposeView): Disposal;
  /**
   * Whether a write of an attempt (and its POST) checks the claim token first
   * (optional; default: every write is fenced). An unfenced write goes ahead
   * although the claim was taken over (docs/rules.md, 'Time').
   */
  fences?(write: FencedWrite): boolean;
  /**
   * What a consumer reads from the body of an envelope this rule set built
   * (optional; default: the body as sent). A rule set whose `envelope`
   * encodes bodies (compression, base64, a wrapper document) gives the
   * decoding its consumers apply, so that the broker is judged by what they
   * read: the world carries each envelope's body decoded (docs/rules.md,
   * 'Encoded envelopes').
   */
  decode?(body: string): string;
}

/** A named rule set. */
export interface RuleSet extends RuleDecisions {
  name: string;
  /** One line: what this rule set decides. */
  summary: string;
  /** The rule set this one extends, if any. */
  extends?: string;
}

/** Builds a rule set that overrides some decisions of `base`. */
export function extendRules(
  base: RuleSet,
  overrides: Partial<RuleDecisions> & { name: string; summary: string },
): RuleSet {
  return { ...base, ...overrides, extends: base.name };
}

/** The decisions of a rule set, in the order of the interface; the optional ones last (their index is a watchdog's code). */
export const DECISIONS = ['admit', 'mayClaim', 'preSend', 'envelope', 'classify', 'complete', 'requeue', 'dispose', 'selectable', 'fences', 'sweepable', 'decode'] as const satisfies readonly (keyof RuleDecisions)[];

/** Decisions a rule set may leave out, each with its default. */
export const OPTIONAL_DECISIONS: ReadonlySet<string> = new Set(['selectable', 'fences', 'sweepable', 'decode']);

/**
 * Whether an engine of `rules` selects `record` to work on: pending (READY
 * or QUEUED), and `selectable` (default: every pending record). A caller in
 * a world without a clock may leave `now` out: the decision is told the clock's origin (model/time.ts).
 */
export function selects(rules: RuleSet, record: OutboxRecord, view: Omit<SelectView, 'now'> & { now?: number }): boolean {
  if (!isPending(record.status)) return false;
  if (rules.selectable === undefined) return true;
  return rules.selectable(record, view.now === undefined ? { ...view, now: TIME_ORIGIN } : (view as SelectView));
}

/**
 * The envelope as the world carries it: its body as a consumer reads it
 * (`decode`; without one, the body as sent). The broker then holds, and the
 * properties judge, what consumers read (docs/rules.md, 'Encoded envelopes').
 */
export function decodedEnvelope(rules: RuleSet, envelope: Envelope): Envelope {
  return rules.decode === undefined ? envelope : { ...envelope, body: rules.decode(envelope.body) };
}

/** The `selectable` decisions marked as deciding by the record alone ({@link byRecordAlone}). */
const RECORD_ONLY = new WeakSet<object>();

/**
 * Marks a `selectable` that decides by the record alone, never by its view
 * (neither the clock nor who asks), and returns it. The mark is explicit,
 * not read off the function's arity: a decision of one declared parameter
 * may still read the view through a default or rest parameter.
 */
export function byRecordAlone<F extends NonNullable<RuleDecisions['selectable']>>(f: F): F {
  RECORD_ONLY.add(f);
  return f;
}

/**
 * Whether a rule set's selection depends on the record alone: it declares no
 * `selectable`, or one marked {@link byRecordAlone} (fail-closed's digest
 * check). A world then need not list a drain again when time passes; an
 * unmarked decision is taken to read the clock.
 */
export function selectsByRecordAlone(rules: RuleDecisions): boolean {
  return rules.selectable === undefined || RECORD_ONLY.has(rules.selectable);
}

/**
 * `f`, a selection standing in for `rules`' own (a wrapper that watches or
 * records the calls and answers as `rules` does), marked as a selection by
 * the record alone when `rules`' own is one: a wrapper must not change how
 * the world lists drains as time passes.
 */
export function sameSelectionKind<F extends NonNullable<RuleDecisions['selectable']>>(rules: RuleDecisions, f: F): F {
  return selectsByRecordAlone(rules) ? byRecordAlone(f) : f;
}

/** Why `value` is not a rule set, or null when it is one. */
export function ruleSetProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'the default export is not an object';
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || v.name === '') return 'the rule set has no `name` string';
  if (typeof v.summary !== 'string') return `rule set "${v.name}" has no \`summary\` string`;
  if (typeof v.schemaKnown !== 'number') return `rule set "${v.name}" has no numeric \`schemaKnown\``;
  if (v.recordShape !== undefined) {
    const shape = v.recordShape as { payload?: unknown } | null;
    if (typeof shape !== 'object' || shape === null || (shape.payload !== 'required' && shape.payload !== 'optional')) {
      return `rule set "${v.name}" has a \`recordShape\` that is not { payload: 'required' | 'optional' }`;
    }
  }
  if (v.retention !== undefined && v.retention !== 'delete' && v.retention !== 'tombstone') {
    return `rule set "${v.name}" has a \`retention\` that is not 'delete' or 'tombstone'`;
  }
  if (v.recordSchema !== undefined) {
    const problem = recordSchemaProblem(v.recordSchema);
    if (problem !== null) return `rule set "${v.name}" has a \`recordSchema\` that ${problem}`;
  }
  for (const d of DECISIONS) {
    if (OPTIONAL_DECISIONS.has(d) && v[d] === undefined) continue;
    if (typeof v[d] !== 'function') return `rule set "${v.name}" is missing the decision \`${d}\``;
  }
  return null;
}
