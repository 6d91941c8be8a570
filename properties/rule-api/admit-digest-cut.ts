/**
 * fail-closed that, to keep outbox rows small, compares the body of a new
 * file for a DELIVERED id through a short digest column (the first 4 hex
 * characters of the digest, a CHAR(4)): the same short digest is taken for
 * the same body, already delivered, and the file is archived.
 *
 * Mistake: two bodies share a 16-bit prefix of their digests once in
 * 65,536 pairs, and an id that publishes a few hundred bodies over its
 * life meets one: the new body is kept out as delivered, never sent, and
 * reported delivered (the broker holds the old one). Bodies A, B, C never
 * collide; the body probe asks admit with a body whose digest begins as
 * the record's (body-shape.ts, `DIGEST_TWINS`), and the suite searches the
 * default world with such bodies (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { digestOf } from '../../model/schema.ts';

const short = (digest: unknown): string => (typeof digest === 'string' ? digest.slice(0, 4) : '');

const admitDigestCut: RuleSet = extendRules(failClosed, {
  name: 'admit-digest-cut',
  summary: 'fail-closed, but a DELIVERED record holds a new body when the first 4 hex characters of their digests match.',
  admit(view) {
    const { read, body } = view;
    if (read.kind === 'found' && read.metadataOnly !== true && read.record.status === 'DELIVERED' && short(read.record.digest) === short(digestOf(body))) return { kind: 'keep' };
    return failClosed.admit(view);
  },
  dispose(view) {
    const { file, live, read, sent } = view;
    const record = read.kind === 'found' ? read.record : null;
    if (sent === null && live !== null && live.generation === file.generation && record !== null && record.status === 'DELIVERED' && short(record.digest) === short(digestOf(file.body))) return { kind: 'archive', file };
    return failClosed.dispose(view);
  },
});

export default admitDigestCut;
