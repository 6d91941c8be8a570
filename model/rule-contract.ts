/**
 * The contract of each decision of a rule set: what it must return, as one
 * runtime schema per decision (zod), and {@link guardRules}, which holds a
 * rule set to it where each decision is called. A decision that throws, or
 * returns something outside its contract, becomes a {@link RuleFault} naming
 * the rule set, the decision and what went wrong, instead of a value the
 * model would misread (a `classify` returning 'strange' counted as nothing, an
 * `admit` returning undefined read as "leave") or a crash deep in the model.
 *
 * Catalog rule sets are trusted and run unguarded (the guard costs a schema
 * check per call); a test holds them and the mutants to the contract.
 */
// As a namespace (zod 4's documented form), so that the bundle takes only the schemas used and English messages, not every locale (docs/performance.md, 'Start-up').
import * as z from 'zod';
import { OUTCOMES, PARK_REASONS, STATUSES } from './types.ts';
import { SHAPE_DEFAULT, type RecordShape } from './record.ts';
import { DECISIONS, type RuleSet } from './rules.ts';
import { RuleFault, thrownFault, type Decision } from './rule-fault.ts';
import { keepsContract } from './rule-contract-fast.ts';

export { RuleFault, ruleFaultOf, type Decision, type FaultKind } from './rule-fault.ts';

const status = z.enum(STATUSES);
const parkReason = z.enum(PARK_REASONS);
/** Records are open objects: fields the model does not know are kept. */
const fullRecord = z.looseObject({
  schema: z.number(),
  status,
  payload: z.string(),
  digest: z.string(),
  attempts: z.number(),
  resendEpoch: z.number(),
  reason: parkReason.optional(),
});
/** A record of a rule set that declares metadata-only records legal (`recordShape: { payload: 'optional' }`). */
const metadataRecord = fullRecord.extend({ payload: z.string().optional() });
const resultFile = z.object({ id: z.string(), body: z.string(), generation: z.number() });
const outcome = z.enum(OUTCOMES);

/** Each decision's contract: its return value's schema, and the same in words. */
type Contract = Record<Decision, { schema: z.ZodType; expected: string }>;

/** The contracts for records of one shape. */
function contractFor(record: typeof fullRecord | typeof metadataRecord, payload: string): Contract {
  /**
   * A record as the store may hold it: `requeue` is given the stored record as
   * it is, which may be a legacy one (written before attempts, resendEpoch and
   * digest existed), and may give it back so.
   */
  const storedRecord = record.extend({ digest: z.string().optional(), attempts: z.number().optional(), resendEpoch: z.number().optional() });
  return {
    admit: {
      schema: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('write'), record }),
        z.object({ kind: z.literal('keep') }),
        z.object({ kind: z.literal('quarantine'), cause: z.string() }),
        z.object({ kind: z.literal('leave') }),
      ]),
      expected: `an Admission: {kind:'write', record} | {kind:'keep'} | {kind:'quarantine', cause} | {kind:'leave'}${payload}`,
    },
    mayClaim: { schema: z.boolean(), expected: 'a boolean' },
    selectable: { schema: z.boolean(), expected: 'a boolean' },
    fences: { schema: z.boolean(), expected: 'a boolean' },
    sweepable: { schema: z.boolean(), expected: 'a boolean' },
    // A PARKED record parks instead of sending (docs/rules.md, 'The decisions'): it must say why, as a park in `complete` may not.
    preSend: {
      schema: (record.nullable() as z.ZodType<{ status: string; reason?: string } | null>).refine((r) => r === null || r.status !== 'PARKED' || r.reason !== undefined, { message: 'a PARKED record (park instead of send) needs its park reason', path: ['reason'] }),
      expected: `an OutboxRecord or null, a PARKED one with its park reason${payload}`,
    },
    envelope: { schema: z.object({ id: z.string(), body: z.string(), key: z.string() }), expected: 'an Envelope {id, body, key} of strings' },
    decode: { schema: z.string(), expected: 'a string (the body as a consumer reads it)' },
    classify: { schema: outcome, expected: `an Outcome: one of ${outcome.options.map((o) => `'${o}'`).join(', ')}` },
    complete: { schema: z.array(record), expected: `an array of OutboxRecords (empty: nothing written)${payload}` },
    requeue: { schema: storedRecord, expected: `an OutboxRecord (a legacy one may lack attempts, resendEpoch and digest)${payload}` },
    dispose: {
      schema: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('archive'), file: resultFile }),
        z.object({ kind: z.literal('quarantine'), file: resultFile, cause: z.string() }),
        z.object({ kind: z.literal('leave') }),
      ]),
      expected: "a Disposal: {kind:'archive', file} | {kind:'quarantine', file, cause} | {kind:'leave'}",
    },
  };
}

/** Each decision's return value, as `model/rules.ts` and `model/types.ts` type it, and the same in words. */
export const CONTRACT: Contract = contractFor(fullRecord, '');
/** The same for a rule set whose records may have no payload (`recordShape: { payload: 'optional' }`). */
export const CONTRACT_METADATA_ONLY: Contract = contractFor(metadataRecord, ' (payload optional: metadata-only records are declared legal)');

/** The contracts that hold a rule set of `shape`. */
export function contractOf(shape: RecordShape = SHAPE_DEFAULT): Contract {
  return shape.payload === 'optional' ? CONTRACT_METADATA_ONLY : CONTRACT;
}

/** A short, one-line rendering of any value (what a decision returned). */
export function preview(value: unknown, max = 80): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'function') text = '[function]';
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'symbol') text = value.toString();
  else if (value instanceof Promise) text = 'a Promise (decisions are synchronous)';
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  // One line whatever the value holds: control characters are escaped.
  text = Array.from(text, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\u${code.toString(16).padStart(4, '0')}` : c;
  }).join('');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Why `value` breaks `decision`'s contract (for records of `shape`), or null when it keeps it. */
export function contractProblem(decision: Decision, value: unknown, shape: RecordShape = SHAPE_DEFAULT): string | null {
  // The cheap test first: what it accepts the schema accepts (rule-contract-fast.ts); the rest the schema judges.
  if (keepsContract(decision, value, shape)) return null;
  const { schema, expected } = contractOf(shape)[decision];
  const r = schema.safeParse(value);
  if (r.success) return null;
  const issue = r.error.issues[0];
  // Name the field when the problem is inside the value (a record without its digest, say).
  // (A wrong `kind` is said by the value and the expectation already.)
  const inside = issue !== undefined && issue.path.length > 0 && !(issue.path.length === 1 && issue.path[0] === 'kind');
  const where = inside ? ` (${issue.path.join('.')}: ${issue.message})` : '';
  return `returned ${preview(value)}, expected ${expected}${where}`;
}

/**
 * A number the store cannot keep as it is, anywhere in a decision's value,
 * said as the problem; null when there is none. Records are stored as JSON,
 * which writes Infinity and NaN as null: a back-off stamping `retryAt:
 * Infinity` ran in the simulation as "never", and its trace showed
 * `retryAt=null`, which the rule's own `selectable` would take as "now".
 * A real JSON-backed store does the same, so the value is refused.
 */
function unstorableNumber(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : `wrote ${path === '' ? 'the value' : path} = ${String(value)}, which a JSON store keeps as null: store a finite number, or leave the field out`;
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = unstorableNumber(v, path === '' ? k : `${path}.${k}`);
    if (found !== null) return found;
  }
  return null;
}

/** What a guarded call reports as it starts and ends (a watchdog's view of user code); cheap. */
export interface DecisionWatch {
  enter(decision: number): void;
  leave(): void;
}

/** The message of anything thrown, on one line. */
function thrownMessage(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : preview(err);
  const line = text.split('\n')[0] ?? '';
  return err instanceof TypeError && CHANGED_FROZEN.test(line) ? `${line} (${CHANGED_HINT})` : line;
}

/** What V8 says of a write to a frozen object (a field set, added or deleted; an array pushed to or sorted in place). */
const CHANGED_FROZEN = /read[- ]only|not extensible|Cannot (assign|add|delete|define|redefine)|trap returned falsish/i;
const CHANGED_HINT = 'a decision must not change a record it is given: return a new one, { ...record, field: value }';

/**
 * Freezes a record a decision returned, and every object in it, so that a
 * later decision that changes it in place (`record.attempts += 1`) throws at
 * that line, which the guard reports as a broken decision, instead of
 * changing a record that earlier states share: the search would then no
 * longer be of the rule set as written (a different state space, and
 * verdicts that mean nothing). Records reach decisions from the store, where
 * decisions put them; a record the world makes itself (a storage fault's) is
 * not frozen. An object already frozen is taken as frozen throughout.
 */
function freezeDeep(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) freezeDeep(v);
}

/** Guarded rule sets and what each wraps. */
const originals = new WeakMap<RuleSet, RuleSet>();

/**
 * The rule set with every decision held to its contract: a throw or a
 * malformed return becomes a {@link RuleFault}. `label` names the rule set
 * in messages (default: its name, quoted). Decisions run with the original
 * rule set as `this`, and return exactly what they returned.
 */
export function guardRules(rules: RuleSet, label = JSON.stringify(rules.name), watch?: DecisionWatch): RuleSet {
  const guarded: RuleSet = { ...rules };
  originals.set(guarded, rules);
  const shape = rules.recordShape ?? SHAPE_DEFAULT;
  DECISIONS.forEach((decision, code) => {
    const fn = rules[decision] as ((...args: unknown[]) => unknown) | undefined;
    // An optional decision left out keeps its default.
    if (fn === undefined) return;
    const call = (args: unknown[]): unknown => {
      watch?.enter(code);
      let value: unknown;
      try {
        value = fn.apply(rules, args);
      } catch (err) {
        if (err instanceof RuleFault) throw err;
        throw thrownFault(new RuleFault(label, decision, 'threw', `threw ${thrownMessage(err)}`, err));
      } finally {
        watch?.leave();
      }
      const problem = contractProblem(decision, value, shape) ?? unstorableNumber(value);
      if (problem !== null) throw thrownFault(new RuleFault(label, decision, 'malformed', problem));
      freezeDeep(value);
      return value;
    };
    (guarded as unknown as Record<string, unknown>)[decision] = (...args: unknown[]) => call(args);
  });
  return guarded;
}

/** The rule set a guarded one wraps (what the user's file exported); any other rule set as it is. */
export function unguarded(rules: RuleSet): RuleSet {
  return originals.get(rules) ?? rules;
}
