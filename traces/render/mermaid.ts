/**
 * A trace as a Mermaid `sequenceDiagram`: the producer, one participant per
 * engine process, the outbox, the broker and (when it acts) the operator.
 * Every step is one message; faults also get a note, so a reader sees where
 * the world misbehaved, not only where the engines did.
 */
import type { EngineProc, WorldEvent } from '../../sim/outbox/world.ts';
import type { Trace, TraceStep } from '../../sim/trace-format.ts';
import { statesOf, type TraceState } from './states.ts';
import { changeNotes, FAULT_ANSWERS, isDurable } from './summary.ts';

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

const KINDS = new Set(['scan', 'drain', 'step', 'answer', 'crash', 'restart', 'upgrade', 'produce', 'requeue', 'restore', 'tear-record', 'tear-claim', 'newer-schema', 'legacy-record']);

function worldEvent(e: unknown): WorldEvent | null {
  return typeof e === 'object' && e !== null && KINDS.has(String((e as { kind?: unknown }).kind)) ? (e as WorldEvent) : null;
}

function enginesOf(s: TraceState): EngineProc[] {
  return Array.isArray(s.engines) ? (s.engines as EngineProc[]) : [];
}

/** Words for an engine step, by the lifecycle state it leaves. */
const STEP_WORDS: Record<string, string> = {
  idle: 'start a pass',
  claiming: 'claim',
  preSend: 'pre-send write',
  posting: 'POST',
  completing: 'complete',
  releasing: 'release claim',
};

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

/** Draws one step of the outbox model. */
function drawOutboxStep(d: Drawn, step: TraceStep, before: TraceState, after: TraceState): void {
  const durable = changeNotes(before, after, step.change)
    .filter((n) => isDurable(n.area))
    .map((n) => n.text)
    .join(', ');
  const text = (what: string) => `${step.n}. ${what}${durable === '' ? '' : ` · ${durable}`}`;
  const e = worldEvent(step.event);
  const faultTag = step.tags.find((t) => t.startsWith('fault:'));
  if (e === null) {
    note(d, 'Producer,Broker', `${step.n}. ${step.label}`);
    return;
  }
  switch (e.kind) {
    case 'produce':
      message(d, 'Producer', '->>', 'Producer', `${step.n}. write ${durable === '' ? `results/${e.id}` : durable}`);
      if (step.tags.includes('fault:replace-during-send')) note(d, 'Producer', `fault: results/${e.id} replaced while being sent`);
      return;
    case 'scan':
      message(d, `e${e.pid}`, '->>', 'Outbox', text(`scan results/${e.id}, publish`));
      return;
    case 'drain':
      message(d, `e${e.pid}`, '->>', 'Outbox', text(`drain ${e.id}`));
      return;
    case 'step':
      if (e.at === 'disposing') message(d, `e${e.pid}`, '->>', 'Producer', durable === '' ? `${step.n}. dispose: the file stays in results/` : text('dispose'));
      else message(d, `e${e.pid}`, '->>', 'Outbox', text(STEP_WORDS[e.at] ?? e.at));
      return;
    case 'answer': {
      const env = enginesOf(before).find((p) => p.pid === e.pid)?.ctx.envelope ?? null;
      const what = env === null ? `POST -> ${e.answer}` : `POST ${env.id} = ${env.body} (key ${env.key}) -> ${e.answer}`;
      const fault = FAULT_ANSWERS[e.answer];
      message(d, `e${e.pid}`, fault === undefined ? '->>' : '-x', 'Broker', text(what));
      if (fault !== undefined) note(d, `e${e.pid},Broker`, `fault: ${fault}`);
      return;
    }
    case 'crash':
      message(d, `e${e.pid}`, '-x', `e${e.pid}`, text(`crash (at ${e.at})`));
      note(d, `e${e.pid}`, `fault: e${e.pid} crashes, its memory is lost`);
      return;
    case 'restart': {
      const fresh = enginesOf(after).find((p) => !enginesOf(before).some((q) => q.pid === p.pid));
      const who = fresh === undefined ? 'Producer' : `e${fresh.pid}`;
      message(d, who, '->>', who, text(`restart: a new process on the ${e.version} rules`));
      return;
    }
    case 'upgrade': {
      const fresh = enginesOf(after).find((p) => !enginesOf(before).some((q) => q.pid === p.pid));
      const to = fresh === undefined ? `e${e.pid}` : `e${fresh.pid}`;
      message(d, `e${e.pid}`, '-x', to, text(`upgrade: e${e.pid} stops, ${to} starts on the new rules`));
      note(d, `e${e.pid}`, 'fault: rolling upgrade');
      return;
    }
    case 'requeue':
      message(d, 'Operator', '->>', 'Outbox', text(`requeue ${e.id}${e.reset ? ' (reset attempts)' : ''}`));
      return;
    case 'restore':
      message(d, 'Operator', '->>', 'Producer', text(`restore quarantined #${e.index} into results/`));
      return;
    default:
      // Store faults: a torn record or claim, a newer schema, a legacy record.
      message(d, 'Outbox', '-x', 'Outbox', text(step.label));
      note(d, 'Outbox', `fault: ${faultTag?.slice('fault:'.length) ?? e.kind}`);
  }
}

function participantsOf(trace: Trace, states: readonly TraceState[]): string[] {
  const versions = new Map<number, string>();
  for (const s of states) for (const p of enginesOf(s)) versions.set(p.pid, p.version);
  const operator = trace.steps.some((s) => s.group === 'operator' || ['requeue', 'restore'].includes(worldEvent(s.event)?.kind ?? ''));
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
