/**
 * Pieces of text in lines of at most a width: a piece is never split, and
 * one longer than the width gets a line of its own. The help's exit codes
 * wrap words (cli/help-contract.ts), the check's summary wraps its lists'
 * items (check-report.ts).
 */

/** `pieces`, joined by one space, in lines of at most `width` characters. */
export function wrapPieces(pieces: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line !== '' && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = line === '' ? piece : `${line} ${piece}`;
  }
  return [...lines, line];
}
