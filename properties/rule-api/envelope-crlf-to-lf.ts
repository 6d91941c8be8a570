/**
 * fail-closed behind an HTTP client (or a proxy in text mode) that
 * normalises line endings in the body it sends, CR LF to LF, as a
 * JSON-lines transport may.
 *
 * Mistake: a payload with a CR LF pair (a CSV export from a Windows
 * producer) reaches the broker with a bare LF, and the record says
 * DELIVERED a body the broker does not hold as written
 * (delivered-as-written). A body without a CR LF pair is untouched, so a
 * world of one-letter bodies never shows it; the `control` body shape holds
 * one (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

const envelopeCrlfToLf: RuleSet = extendRules(failClosed, {
  name: 'envelope-crlf-to-lf',
  summary: 'fail-closed, but the envelope body has its CR LF pairs normalised to LF.',
  envelope(id, record) {
    const envelope = failClosed.envelope(id, record);
    return { ...envelope, body: envelope.body.replace(/\r\n/g, '\n') };
  },
});

export default envelopeCrlfToLf;
