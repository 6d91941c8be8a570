/**
 * An older version of fail-closed (`flags-trust-defaults.ts`: before it
 * validated its flags) on an older record schema, from before `unknownSeen`
 * existed, whose serializer drops the fields it does not know
 * (`unknownFields: 'drop'`, as proto3 did for years). As `--old-rules`, each
 * record it rewrites loses `unknownSeen`: the evidence that an attempt may
 * have stored the body. It parks a later refusal `permanent-refusal` over a
 * body the broker holds (honest-park). `flags-old-keeps.ts`, the same
 * version keeping unknown fields, is clean.
 */
import { FAIL_CLOSED_SCHEMA } from '../../model/catalog/fail-closed.ts';
import type { RuleSet } from '../../model/rules.ts';
import flagsTrustDefaults from './flags-trust-defaults.ts';

const { unknownSeen: _introducedLater, ...olderFields } = FAIL_CLOSED_SCHEMA.fields;

const flagsOldDrops: RuleSet = {
  // An old version reads its flags as they come: it predates the validation.
  ...flagsTrustDefaults,
  name: 'flags-old-drops',
  summary: 'fail-closed on a record schema without unknownSeen, dropping the fields it does not know when it rewrites a record.',
  recordSchema: { version: FAIL_CLOSED_SCHEMA.version, fields: olderFields, unknownFields: 'drop' },
};

export default flagsOldDrops;
