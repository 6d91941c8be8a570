/**
 * `show --format text`: a numbered table of steps for a terminal, each with
 * a short summary of what it changed, then the violation and the replay
 * command.
 */
import type { Trace } from '../../sim/trace-format.ts';
import { phaseWord, replayFromHere, titleLine, violationLine, type RenderOptions } from './facts.ts';
import { statesOf } from './states.ts';
import { worldLines } from './world-line.ts';
import { changeNotes, noteContextOf, shownLabel } from './summary.ts';
// Control characters would move a terminal's cursor: every cell is printed escaped.
import { terminalText as printable } from '../../sim/terminal-text.ts';


/** Columns are padded to the widest cell up to this width; a wider cell overflows its row alone. */
const COLUMN_WIDTH_MAX = 40;

function pad(s: string, width: number, right = false): string {
  return right ? s.padStart(width) : s.padEnd(width);
}

/** Renders a trace as plain text (ends with a newline). */
export function renderText(trace: Trace, options: RenderOptions): string {
  const states = statesOf(trace);
  const violationStep = trace.header.violation?.step ?? null;
  const rows = trace.steps.map((s, i) => {
    const notes = changeNotes(states[i], states[i + 1], s.change, noteContextOf(trace, s)).map((n) => n.text);
    const mark = s.n === violationStep ? `  <- ${trace.header.violation?.property ?? ''}` : '';
    return [String(s.n), phaseWord(s.phase), s.group, shownLabel(s), `${notes.join('; ') || '-'}${mark}`].map(printable);
  });
  const head = ['n', 'phase', 'group', 'label', 'change'];
  const widths = head.map((h, c) => Math.min(COLUMN_WIDTH_MAX, rows.reduce((w, r) => Math.max(w, r[c].length), h.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c === cells.length - 1 ? cell : pad(cell, widths[c], c === 0)))
      .join('  ')
      .trimEnd();
  return [
    printable(titleLine(trace)),
    ...worldLines(trace, states).map(printable),
    printable(violationLine(trace)),
    '',
    line(head),
    ...rows.map(line),
    '',
    `replay: ${printable(replayFromHere(trace, options))}`,
    '',
  ].join('\n');
}
