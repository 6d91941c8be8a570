/**
 * A body as everything that shows one prints it (docs/protocol.md, 'Body shapes'): compactly and without
 * ambiguity. A body of printable ASCII without a space, a quote or a backslash, of at most
 * {@link BODY_TEXT_CHARS} characters, is printed as it is (`A`, `a?`: every body of a world without a
 * shape, so no message or trace of one changes). A longer one is its first character, how many follow and
 * its digest (`A+262,144 chars #49cbf6cc`: two long bodies alike in length are told apart). Any other is
 * quoted, every character outside printable ASCII escaped by its code point (`"Ae\u{301}\u{E9}"`: a body
 * in NFD and one in NFC differ on the page as they do in the store; a trailing space, a newline or NUL is
 * seen).
 */
import { digestOf } from '../model/record.ts';
import { countText } from './count-text.ts';

/** The longest body printed as it is (or quoted); a longer one is printed short. */
export const BODY_TEXT_CHARS = 64;

/** Printable ASCII but the space, the quote and the backslash. */
const PLAIN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** A character of a quoted body as printed. */
function escapedChar(ch: string): string {
  if (ch === '"') return '\\"';
  if (ch === '\\') return '\\\\';
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const c = ch.codePointAt(0) ?? 0;
  return c >= 0x20 && c < 0x7f ? ch : `\\u{${c.toString(16).toUpperCase()}}`;
}

/** `s` with every character outside printable ASCII (and the quote, the backslash) escaped, unquoted. */
function escaped(s: string): string {
  let out = '';
  for (const ch of s) out += escapedChar(ch);
  return out;
}

/** A body as printed. */
export function bodyText(body: string): string {
  if (body.length <= BODY_TEXT_CHARS && PLAIN.test(body)) return body;
  if (body.length > BODY_TEXT_CHARS) return longText(body);
  return `"${escaped(body)}"`;
}

/** A short string (an id, a key) as printed: as it is when plain, else quoted with every character outside printable ASCII escaped; never cut short. */
export function quotedText(s: string): string {
  return PLAIN.test(s) ? s : `"${escaped(s)}"`;
}

/** A long string as printed: its first character (escaped when odd), how many follow, and its digest. */
export function longText(s: string): string {
  const first = String.fromCodePoint(s.codePointAt(0) ?? 0);
  const head = PLAIN.test(first) ? first : `"${escaped(first)}"`;
  return `${head}+${countText(s.length - first.length)} chars #${digestOf(s)}`;
}

/** Whether `s` is a string {@link longText} printed (a renderer shows it as it is, not quoted again). */
export function isLongText(s: string): boolean {
  return /^(?:[\x21\x23-\x5b\x5d-\x7e]|"[^"]*")\+[0-9,]+ chars #[0-9a-f]{8}$/.test(s);
}
