/**
 * Item "schema versions" under version skew (docs/rules.md, 'Version skew'):
 * fail-closed on record schema 2, whose `admit` migrates a pending record
 * of schema 1 by writing it back as read, with `schema: 2`.
 *
 * Alone it is as safe as fail-closed: its own engines write schema 2 from
 * the first publish. Beside fail-closed, the old engines write schema 1,
 * and a record of theirs whose evidence flag was damaged is read with the
 * flag's default (false) filled in: the migration writes that false back,
 * and a later refusal parks as not delivered a body the broker holds
 * (honest-park). Only a skewed world with a corruption shows it (a blind
 * review's schema bump; docs/rules.md, 'Version skew').
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import failClosed from '../../model/catalog/fail-closed.ts';
import { digestOf } from '../../model/schema.ts';

const base = failClosed.recordSchema;
if (base === undefined) throw new Error('schema-bump-launders: fail-closed declares its record schema');

const schemaBumpLaunders: RuleSet = extendRules(failClosed, {
  name: 'schema-bump-launders',
  summary: 'fail-closed on record schema 2; a pending schema-1 record is migrated on publish by writing it back as read (its damaged fields filled with defaults).',
  schemaKnown: 2,
  recordSchema: { ...base, version: 2 },
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'absent') {
      return { kind: 'write', record: { schema: 2, status: 'READY', payload: body, digest: digestOf(body), attempts: 0, resendEpoch: 0, inFlight: false, unknownSeen: false } };
    }
    if (read.kind === 'found' && read.metadataOnly !== true && read.record.schema < 2 && (read.record.status === 'READY' || read.record.status === 'QUEUED')) {
      return { kind: 'write', record: { ...read.record, schema: 2 } };
    }
    return failClosed.admit(view);
  },
});

export default schemaBumpLaunders;
