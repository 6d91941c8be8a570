/**
 * fail-closed whose envelope sends every body base64-encoded, as a team does
 * for a broker whose messages must be printable ASCII; its consumers decode
 * the base64 before they read a body, and the rule set says so with
 * `decode`.
 *
 * Mistake: the encoding takes the body's characters as Latin-1 bytes (the
 * default of many older base64 helpers), and the decoding reads them back
 * as Latin-1. Every character past U+00FF loses its high byte: an emoji,
 * a CJK ideograph or a combining accent reaches consumers as other
 * characters, and the broker holds a body nobody wrote (delivered-as-written).
 * Bodies of one ASCII letter round-trip; a world whose bodies hold such
 * characters does not (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const envelopeLatin1: RuleSet = extendRules(failClosed, {
  name: 'envelope-latin1',
  summary: 'fail-closed, but its envelope base64-encodes each body as Latin-1 bytes, and decode reads them back as Latin-1.',
  envelope(id, record) {
    const envelope = failClosed.envelope(id, record);
    return { ...envelope, body: Buffer.from(envelope.body, 'latin1').toString('base64') };
  },
  decode(body) {
    return Buffer.from(body, 'base64').toString('latin1');
  },
});

export default envelopeLatin1;
