/**
 * fail-closed whose pre-send write goes through a column that holds only
 * characters of the Basic Multilingual Plane (MySQL's `utf8mb3`): the team
 * "sanitises" the payload on the way, stripping every character outside it
 * (an emoji, a CJK ideograph of plane 2), and recomputes its digest so that
 * the record still checks out.
 *
 * Mistake: the record and its digest agree, so the stripped payload is sent
 * and reported delivered, and the body the producer wrote is gone: the
 * broker holds a body nobody wrote (delivered-as-written). Bodies of one
 * ASCII letter lose nothing to it: a world whose bodies hold such characters
 * does (docs/protocol.md, 'Body shapes').
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { digestOf } from '../../model/record.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';

/** The payload as a `utf8mb3` column keeps it: every character outside the BMP (a surrogate pair in UTF-16) dropped. */
export function bmpOnly(payload: string): string {
  return payload.replace(/[\u{10000}-\u{10FFFF}]/gu, '');
}

const presendStripsAstral: RuleSet = extendRules(failClosed, {
  name: 'presend-strips-astral',
  summary: 'fail-closed, but its pre-send write strips characters outside the BMP from the payload and recomputes the digest.',
  preSend(record, view) {
    const next = failClosed.preSend(record, view);
    if (next === null || typeof next.payload !== 'string') return next;
    const payload = bmpOnly(next.payload);
    return payload === next.payload ? next : { ...next, payload, digest: digestOf(payload) };
  },
});

export default presendStripsAstral;
