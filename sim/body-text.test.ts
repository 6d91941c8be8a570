/** A body as everything that shows one prints it (body-text.ts). */
import { describe, expect, it } from 'vitest';
import { bodyText, isLongText, longText } from './body-text.ts';
import { shapedBody } from './outbox/body-shape.ts';

describe('bodyText', () => {
  it('prints a plain body as it is (no message of a world without a shape changes)', () => {
    for (const b of ['A', 'a', 'a?', 'v2/a']) expect(bodyText(b)).toBe(b);
  });
  it('prints a long body as its letter, how many follow and its digest, and tells two alike in length apart', () => {
    const a = shapedBody('A', 'large:262145');
    expect(bodyText(a)).toMatch(/^A\+262,144 chars #[0-9a-f]{8}$/);
    expect(bodyText(`${a.slice(0, -1)}y`)).not.toBe(bodyText(a));
    expect(isLongText(bodyText(a))).toBe(true);
    expect(longText(`\u{1F4E6}${'x'.repeat(100)}`)).toMatch(/^"\\u\{1F4E6\}"\+100 chars #/);
  });
  it('quotes an odd body, every character outside printable ASCII escaped: NFC and NFD differ, a trailing space shows', () => {
    expect(bodyText(shapedBody('A', 'astral'))).toBe('"A\\u{1F4E6}\\u{20BB7}"');
    const nfd = 'Ae\u0301';
    expect(bodyText(nfd)).toBe('"Ae\\u{301}"');
    expect(bodyText(nfd.normalize('NFC'))).toBe('"A\\u{E9}"');
    expect(bodyText(shapedBody('A', 'control'))).toBe('"A \\"q\'\\\\\\n\\r\\n\\r\\t\\u{0}<&> "');
    expect(bodyText('')).toBe('""');
    expect(isLongText(bodyText('A'))).toBe(false);
  });
});
