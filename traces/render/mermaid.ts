/**
 * A trace as a Mermaid `sequenceDiagram`: the producer, one participant per
 * engine process, the outbox, the broker and (when it acts) the operator.
 * Every step is one message; faults also get a note, so a reader sees where
 * the world misbehaved, not only where the engines did.
 */
import type { Trace } from '../../sim/trace-format.ts';
import { statesOf } from './states.ts';
import { lanesOf, stepDrawings, type Lane, type StepDrawing } from './step-drawings.ts';

/** At most this many steps are drawn; longer traces draw their last steps (the table keeps them all). */
export const DIAGRAM_STEPS_MAX = 300;

/**
 * Escapes text for a Mermaid message, note or alias. `;` and newlines end a
 * statement and `#` starts a comment or an entity, so they become Mermaid
 * entity codes; `<`, `>`, `&`, `%` and backticks become codes too, so the
 * renderer never reads them as HTML, directives or the end of a code fence.
 */
export function mermaidText(s: string): string {
  const codes: Record<string, string> = { ';': '#59;', '#': '#35;', '<': '#lt;', '>': '#gt;', '&': '#amp;', '%': '#37;', '`': '#96;', '"': '#quot;' };
  return [...s]
    .map((ch) => codes[ch] ?? (ch === '\n' || ch === '\r' || ch === '\t' ? ' ' : ch))
    .join('')
    .trim();
}

interface Drawn {
  lines: string[];
}

/** Arrows in labels read better as one character than as escaped `-#gt;`. */
function arrows(text: string): string {
  return text.replace(/->/g, '→');
}

function message(d: Drawn, from: string, arrow: '->>' | '-x', to: string, text: string): void {
  d.lines.push(`  ${from}${arrow}${to}: ${mermaidText(arrows(text))}`);
}

function note(d: Drawn, over: string, text: string): void {
  d.lines.push(`  Note over ${over}: ${mermaidText(arrows(text))}`);
}

/** Draws one step, in the words of its kind's table entry. */
function drawStep(d: Drawn, drawing: StepDrawing): void {
  if (!drawing.noteOnly) message(d, drawing.from, drawing.broken ? '-x' : '->>', drawing.to, drawing.text);
  if (drawing.note !== undefined) note(d, drawing.note.over, drawing.note.text);
}

function participantsOf(lanes: readonly Lane[]): string[] {
  return lanes.map((l) => (l.label === l.id ? `  participant ${l.id}` : `  participant ${l.id} as ${mermaidText(l.label)}`));
}

/** The Mermaid source of a trace's sequence diagram (no code fence). */
export function sequenceDiagram(trace: Trace): string {
  const states = statesOf(trace);
  const outbox = trace.header.model === 'outbox';
  const d: Drawn = { lines: ['sequenceDiagram', ...participantsOf(lanesOf(trace, states))] };
  const drawings = stepDrawings(trace, states);
  const first = Math.max(0, drawings.length - DIAGRAM_STEPS_MAX);
  const span = outbox ? 'Producer,Broker' : 'System';
  if (first > 0) note(d, span, `steps 1-${first} are left out of the diagram (the table below lists them)`);
  const violation = trace.header.violation;
  for (const drawing of drawings.slice(first)) {
    drawStep(d, drawing);
    if (violation !== null && drawing.violation) note(d, outbox ? 'Outbox,Broker' : span, `VIOLATION ${violation.property}: ${violation.detail}`);
  }
  return d.lines.join('\n');
}
