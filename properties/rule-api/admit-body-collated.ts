/**
 * fail-closed whose "already delivered?" test moved into SQL, `WHERE id = ?
 * AND payload = ?`, on a column with a case-insensitive collation (MySQL's
 * default `utf8mb4_0900_ai_ci`): a new body that differs from the
 * delivered one only by letter case is taken for it, kept, and its file
 * archived as delivered.
 *
 * Mistake: a producer's correction (`{"status":"Active"}` after
 * `{"status":"active"}`) is reported delivered while the broker holds the
 * older body (no-phantom-delivery). Bodies of distinct letters never
 * differ only by case; the `case` shape of two bodies alike does, and the
 * body probe marks it where `admit` answers the two forms as one body
 * (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const admitBodyCollated: RuleSet = extendRules(failClosed, {
  name: 'admit-body-collated',
  summary: 'fail-closed, but a DELIVERED record keeps a new body equal to its payload under a case-insensitive collation.',
  admit(view) {
    const { read, body } = view;
    const delivered = read.kind === 'found' && read.metadataOnly !== true && read.record.status === 'DELIVERED';
    if (delivered && typeof read.record.payload === 'string' && read.record.payload.toLowerCase() === body.toLowerCase()) return { kind: 'keep' };
    return failClosed.admit(view);
  },
});

export default admitBodyCollated;
