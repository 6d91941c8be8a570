/**
 * The sound variant of presend-strips-astral.ts: the pre-send write keeps a
 * searchable preview of the payload in a column of its own that holds only
 * characters of the BMP (`utf8mb3`), stripped of the others and cut to 24
 * characters, and leaves the payload and its digest alone. What is sent is
 * the body written; the preview stays within the record's metadata bound
 * whatever the body's size (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import { bmpOnly } from './presend-strips-astral.ts';

/** The preview's length, in characters. */
const PREVIEW_CHARS = 24;

const presendPreview: RuleSet = extendRules(failClosed, {
  name: 'presend-preview',
  summary: `fail-closed whose pre-send write also stores a preview of the payload (BMP characters only, ${PREVIEW_CHARS} at most), the payload left alone.`,
  preSend(record, view) {
    const next = failClosed.preSend(record, view);
    if (next === null || typeof next.payload !== 'string') return next;
    return { ...next, preview: bmpOnly(next.payload).slice(0, PREVIEW_CHARS) };
  },
});

export default presendPreview;
