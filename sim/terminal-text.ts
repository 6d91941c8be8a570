/**
 * Text from a user's rule file or a trace file (a rule set's name, summary,
 * a step's label, a violation's detail, a file name) printed to a terminal.
 * Such text may hold characters that act on the terminal instead of
 * printing: an escape sequence clears the screen or recolours the verdict,
 * a carriage return or a newline overwrites or forges a line (a rule set
 * named "x\nRESULT: no property violated"), a bell rings, a bidirectional
 * override reorders what the reader sees. Every command prints such text
 * through {@link terminalText}: those characters come out as visible escapes
 * (`\u001b`, `\r`, `\n`), the rest unchanged.
 *
 * The escapes are JSON's own, so a JSON line passed through
 * {@link terminalLines} still parses to the same value.
 */
/** The two streams of a command's output (the CLI's `Io` has this shape). */
export interface TextStreams {
  out(line: string): void;
  err(line: string): void;
}

/**
 * C0 controls (newline and tab too), DEL, C1 controls, the Unicode line and
 * paragraph separators, and the bidirectional embeddings, overrides and
 * isolates. (Matching control characters is this file's job.)
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** The same without the newline: for whole outputs whose lines the program itself broke. */
// eslint-disable-next-line no-control-regex
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(ch: string): string {
  return NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One field for a terminal, on one line: every control character as a visible escape. */
export function terminalText(s: string): string {
  return s.replace(UNSAFE, escapeOne);
}

/** A whole output of several lines for a terminal: control characters escaped, its newlines kept. */
export function terminalLines(s: string): string {
  return s.replace(UNSAFE_BUT_NEWLINE, escapeOne);
}

/**
 * The CLI's streams with {@link terminalLines} applied to every line: the
 * backstop behind the escaping of each field, for text a command did not
 * think of (an error message quoting a rule file, say).
 */
export function terminalSafeIo<T extends TextStreams>(io: T): T {
  return { ...io, out: (line) => io.out(terminalLines(line)), err: (line) => io.err(terminalLines(line)) };
}
