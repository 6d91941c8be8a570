/**
 * A trace as a Mermaid `sequenceDiagram`: the producer, one participant per
 * engine process, the outbox, the broker and (when it acts) the operator.
 * Every step is one message; faults also get a note, so a reader sees where
 * the world misbehaved, not only where the engines did.
 */
import { kindOf, WORLD_EVENT_KINDS } from '../../sim/outbox/events/table.ts';
import type { EngineProc, WorldEvent } from '../../sim/outbox/world.ts';
import type { Trace, TraceStep } from '../../sim/trace-format.ts';
import { statesOf, type TraceState } from './states.ts';
import { changeNotes, isDurable } from './summary.ts';

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

function worldEvent(e: unknown): WorldEvent | null {
  return typeof e === 'object' && e !== null && WORLD_EVENT_KINDS.has(String((e as { kind?: unknown }).kind)) ? (e as WorldEvent) : null;
}

function enginesOf(s: TraceState): EngineProc[] {
  return Array.isArray(s.engines) ? (s.engines as EngineProc[]) : [];
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

/** Draws one step of the outbox system, in the words of its kind's table entry. */
function drawOutboxStep(d: Drawn, step: TraceStep, before: TraceState, after: TraceState): void {
  const e = worldEvent(step.event);
  if (e === null) {
    note(d, 'Producer,Broker', `${step.n}. ${step.label}`);
    return;
  }
  const durable = changeNotes(before, after, step.change)
    .filter((n) => isDurable(n.area))
    .map((n) => n.text)
    .join(', ');
  const drawing = kindOf(e).draw(e, { n: step.n, label: step.label, tags: step.tags, durable, enginesBefore: enginesOf(before), enginesAfter: enginesOf(after) });
  message(d, drawing.from, drawing.broken ? '-x' : '->>', drawing.to, drawing.text);
  if (drawing.note !== undefined) note(d, drawing.note.over, drawing.note.text);
}

function participantsOf(trace: Trace, states: readonly TraceState[]): string[] {
  const versions = new Map<number, string>();
  for (const s of states) for (const p of enginesOf(s)) versions.set(p.pid, p.version);
  const operator = trace.steps.some((s) => {
    const e = worldEvent(s.event);
    return s.group === 'operator' || (e !== null && kindOf(e).tag === 'operator');
  });
  return [
    '  participant Producer as Producer (results/)',
    ...[...versions.entries()].sort(([a], [b]) => a - b).map(([pid, v]) => `  participant e${pid} as ${mermaidText(`Gateway e${pid} (${v} rules)`)}`),
    '  participant Outbox',
    '  participant Broker',
    ...(operator ? ['  participant Operator'] : []),
  ];
}

/** The Mermaid source of a trace's sequence diagram (no code fence). */
export function sequenceDiagram(trace: Trace): string {
  const states = statesOf(trace);
  const outbox = trace.header.model === 'outbox';
  const d: Drawn = { lines: ['sequenceDiagram', ...(outbox ? participantsOf(trace, states) : ['  participant System'])] };
  const first = Math.max(0, trace.steps.length - DIAGRAM_STEPS_MAX);
  const span = outbox ? 'Producer,Broker' : 'System';
  if (first > 0) note(d, span, `steps 1-${first} are left out of the diagram (the table below lists them)`);
  const violation = trace.header.violation;
  for (let i = first; i < trace.steps.length; i++) {
    const step = trace.steps[i];
    if (outbox) drawOutboxStep(d, step, states[i], states[i + 1]);
    else message(d, 'System', '->>', 'System', `${step.n}. ${step.label}`);
    if (violation !== null && violation.step === step.n) {
      note(d, outbox ? 'Outbox,Broker' : span, `VIOLATION ${violation.property}: ${violation.detail}`);
    }
  }
  return d.lines.join('\n');
}
