/**
 * A trace's sequence diagram as plain data: its lanes (participants) and one
 * drawing per step, in the words of each kind's table entry (`draw(e, v)` in
 * sim/outbox/events/). The Mermaid renderer (mermaid.ts) and the HTML page's
 * SVG (svg-sequence.ts) both draw from this, so the two diagrams agree.
 */
import { kindOf, WORLD_EVENT_KINDS } from '../../sim/outbox/events/table.ts';
import type { Drawing } from '../../sim/outbox/events/kind.ts';
import type { EngineProc, WorldEvent } from '../../sim/outbox/world.ts';
import type { Trace, TraceStep } from '../../sim/trace-format.ts';
import type { TraceState } from './states.ts';
import { changeNotes, isDurable, isFaultStep, noteContextOf } from './summary.ts';

/** A participant: `id` is what drawings name in `from`, `to` and `note.over`. */
export interface Lane {
  id: string;
  label: string;
}

/** One step drawn: its table drawing plus what the trace says about it. */
export interface StepDrawing extends Drawing {
  n: number;
  /** The trace flags this step as a fault (the world misbehaved). */
  fault: boolean;
  violation: boolean;
  /** Only the note is drawn (a step the table does not know): no arrow. */
  noteOnly: boolean;
}

function worldEvent(e: unknown): WorldEvent | null {
  return typeof e === 'object' && e !== null && WORLD_EVENT_KINDS.has(String((e as { kind?: unknown }).kind)) ? (e as WorldEvent) : null;
}

/** The engine processes of a state (none for a state that has no engines). */
export function enginesOf(s: TraceState): EngineProc[] {
  return Array.isArray(s.engines) ? (s.engines as EngineProc[]) : [];
}

/** The lane of a model with no outbox participants. */
export const SYSTEM_LANE = 'System';

/** The lanes of a trace: producer, each engine process, the outbox (the store), the broker and, when it acts, the operator. */
export function lanesOf(trace: Trace, states: readonly TraceState[]): Lane[] {
  if (trace.header.model !== 'outbox') return [{ id: SYSTEM_LANE, label: SYSTEM_LANE }];
  const operator = trace.steps.some((s) => {
    const e = worldEvent(s.event);
    return s.group === 'operator' || (e !== null && kindOf(e).tag === 'operator');
  });
  return [
    { id: 'Producer', label: 'Producer (results/)' },
    ...engineVersions(states).map(([pid, v]) => ({ id: `e${pid}`, label: `Gateway e${pid} (${rulesWords(trace, v)})` })),
    { id: 'Outbox', label: 'Outbox' },
    { id: 'Broker', label: 'Broker' },
    ...(operator ? [{ id: 'Operator', label: 'Operator' }] : []),
  ];
}

/** Every engine process of a trace's states, by pid, with the rule-set version it runs. */
export function engineVersions(states: readonly TraceState[]): [number, string][] {
  const versions = new Map<number, string>();
  for (const s of states) for (const p of enginesOf(s)) versions.set(p.pid, p.version);
  return [...versions.entries()].sort(([a], [b]) => a - b);
}

/**
 * The rules an engine runs, by name: "new rules" or "old rules" only in a
 * world of both (then with the name), since a lone "new rules" read as
 * the proposed change, in a diff's old side too.
 */
export function rulesWords(trace: Trace, version: string): string {
  const { rules, oldRules } = trace.header;
  if (oldRules === null) return rules.name;
  return version === 'old' ? `old rules: ${oldRules.name}` : `new rules: ${rules.name}`;
}

/** One step of the outbox system, drawn by its kind's table entry; a step of an unknown kind is a note across the diagram. */
function outboxDrawing(trace: Trace, step: TraceStep, before: TraceState, after: TraceState): Drawing | null {
  const e = worldEvent(step.event);
  if (e === null) return null;
  // With the step's tags: the broker's own reply and a POST it dropped are drawn, not only the table's.
  const durable = changeNotes(before, after, step.change, noteContextOf(trace, step))
    .filter((n) => isDurable(n.area))
    .map((n) => n.text)
    .join(', ');
  return kindOf(e).draw(e, { n: step.n, label: step.label, tags: step.tags, durable, enginesBefore: enginesOf(before), enginesAfter: enginesOf(after), skewed: trace.header.oldRules !== null });
}

/** The drawing of every step (`states` as {@link statesOf} rebuilds them: index i is the state before step i + 1). */
export function stepDrawings(trace: Trace, states: readonly TraceState[]): StepDrawing[] {
  const outbox = trace.header.model === 'outbox';
  const vStep = trace.header.violation?.step ?? null;
  return trace.steps.map((step, i) => {
    const marks = { n: step.n, fault: isFaultStep(step, trace.header.model), violation: step.n === vStep };
    if (!outbox) return { from: SYSTEM_LANE, to: SYSTEM_LANE, broken: false, text: `${step.n}. ${step.label}`, ...marks, noteOnly: false };
    const d = outboxDrawing(trace, step, states[i], states[i + 1]);
    if (d === null) {
      const text = `${step.n}. ${step.label}`;
      return { from: 'Producer', to: 'Broker', broken: false, text, note: { over: 'Producer,Broker', text }, ...marks, noteOnly: true };
    }
    return { ...d, ...marks, noteOnly: d.noteOnly ?? false };
  });
}
