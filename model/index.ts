/**
 * The public API for rule authors: `import { failClosed, extendRules } from 'outbox-sim'`.
 */
export { extendRules, ruleSetProblem } from './rules.ts';
export type { Admission, AdmitView, ClaimDecisionView, DecisionView, Disposal, DisposeView, EngineLimits, OperatorAction, OperatorWho, RequeueView, RuleDecisions, RuleSet, SelectView, Who } from './rules.ts';
export { FENCED_WRITES, TIME_ORIGIN } from './time.ts';
export type { FencedWrite, TimeView } from './time.ts';
export { CATALOG, catalogRules, failClosed, freshCycle, freshCycleAfterDefinite } from './catalog/index.ts';
export { admitFreshCycleWhen } from './catalog/fresh-cycle-when.ts';
// fail-closed's pre-send write and record schema, which rule files built on it call and extend (docs/rules.md, 'The catalog').
export { FAIL_CLOSED_SCHEMA, markInFlight } from './catalog/fail-closed.ts';
export { digestOf, freshRecord, freshRecordOf, payloadAltered, SCHEMA_CURRENT } from './record.ts';
export { BASE_FIELDS, METADATA_BYTES_DEFAULT, SCHEMA_DEFAULT } from './schema.ts';
export type { FieldDecl, FieldType, RecordSchema, StoredRecord, UnknownFields } from './schema.ts';
export type * from './types.ts';
