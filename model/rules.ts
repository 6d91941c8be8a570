/**
 * A rule set is an engine version: the decisions of docs/rules.md as pure
 * functions over plain data. The lifecycle statechart (`lifecycle.ts`) asks
 * these through its guards and actions; nothing else in the project decides
 * what an engine does.
 */
import type {
  ClaimView,
  Envelope,
  OutboxRecord,
  Outcome,
  RecordRead,
  Reply,
  ResultFile,
} from './types.ts';

/** What `publish` sees: the body on offer and how the record read. */
export interface AdmitView {
  id: string;
  body: string;
  read: RecordRead;
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
export interface DisposeView {
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
  /** Whether `publish` admits a body for an id, given how its record read. */
  admit(view: AdmitView): Admission;
  /** Whether to take a claim as seen (free, held by a live or dead owner, torn). */
  mayClaim(claim: ClaimView): boolean;
  /** An optional durable write before the POST; null when the rule writes nothing. */
  preSend(record: OutboxRecord): OutboxRecord | null;
  /** The envelope for the record's current cycle. */
  envelope(id: string, record: OutboxRecord): Envelope;
  /** How a reply is understood. */
  classify(reply: Reply): Outcome;
  /** The record writes that complete an attempt, in order (each is its own durable step). */
  complete(record: OutboxRecord, outcome: Outcome, limits: EngineLimits): OutboxRecord[];
  /** What an operator's requeue of a parked record writes. */
  requeue(record: OutboxRecord, resetAttempts: boolean): OutboxRecord;
  /** How the gateway disposes of the file it read. */
  dispose(view: DisposeView): Disposal;
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

/** The decisions of a rule set, in the order of the interface. */
export const DECISIONS = ['admit', 'mayClaim', 'preSend', 'envelope', 'classify', 'complete', 'requeue', 'dispose'] as const satisfies readonly (keyof RuleDecisions)[];

/** Why `value` is not a rule set, or null when it is one. */
export function ruleSetProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'the default export is not an object';
  const v = value as Record<string, unknown>;
  if (typeof v.name !== 'string' || v.name === '') return 'the rule set has no `name` string';
  if (typeof v.summary !== 'string') return `rule set "${v.name}" has no \`summary\` string`;
  if (typeof v.schemaKnown !== 'number') return `rule set "${v.name}" has no numeric \`schemaKnown\``;
  for (const d of DECISIONS) {
    if (typeof v[d] !== 'function') return `rule set "${v.name}" is missing the decision \`${d}\``;
  }
  return null;
}
