/**
 * `show --format md`: a counterexample ready to paste into a pull request: a
 * heading naming the broken property and the rules, the sequence diagram,
 * the store's changes step by step, the violation, and the one command that
 * replays it.
 */
import type { Trace } from '../../sim/trace-format.ts';
import { outboxProperties } from '../../sim/outbox/properties.ts';
import { QUIET_AFTER_HEALING } from '../../sim/core/explore-liveness.ts';
import { cleanEnd, cleanHeading, replayFromHere, rulesOf, titleLine, type RenderOptions } from './facts.ts';
import { sequenceDiagram } from './mermaid.ts';
import { statesOf, type TraceState } from './states.ts';
import { changeNotes, isDurable, noteContextOf, shownLabel, type Area } from './summary.ts';
import { worldLines } from './world-line.ts';
import { idText } from '../../sim/outbox/id-shape.ts';

/** Escapes text for Markdown prose and table cells: no markup, no HTML, no cell breaks. */
export function mdText(s: string): string {
  return s
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/[\\`*_[\]<>|#~]/g, '\\$&');
}

/** Inline code that holds any text: the fence is longer than any backtick run inside. */
export function mdCode(s: string): string {
  const runs = s.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s.replace(/[\r\n]+/g, ' ')}${pad}${fence}`;
}

function codeBlock(lang: string, body: string): string {
  const runs = body.match(/`{3,}/g) ?? [];
  const fence = '`'.repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
  return `${fence}${lang}\n${body}\n${fence}`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

const STORE_AREAS: Area[] = ['records', 'claims', 'files', 'broker'];

function storeTable(trace: Trace, states: readonly TraceState[]): string[] {
  const rows: string[] = [];
  trace.steps.forEach((s, i) => {
    const notes = changeNotes(states[i], states[i + 1], s.change, noteContextOf(trace, s)).filter((n) => isDurable(n.area));
    if (notes.length === 0) return;
    const cell = (a: Area) => mdText(notes.filter((n) => n.area === a).map((n) => n.text).join('; ')) || ' ';
    const mark = s.n === trace.header.violation?.step ? ' **(violation)**' : '';
    rows.push(row([String(s.n), `${mdText(shownLabel(s))}${mark}`, ...STORE_AREAS.map(cell)]));
  });
  if (rows.length === 0) return ['No step changed the store, the files or the broker.'];
  return [row(['step', 'event', ...STORE_AREAS]), row(['---:', '---', ...STORE_AREAS.map(() => '---')]), ...rows];
}

function violationSection(trace: Trace): string[] {
  const v = trace.header.violation;
  if (v === null) return [mdText(cleanEnd(trace))];
  const meaning = propertyMeaning(v.property);
  return [
    row(['property', 'subject', 'body', 'layer', 'step', 'detail']),
    row(['---', '---', '---', '---', '---:', '---']),
    row([mdCode(v.property), mdText(idText(v.subject)), mdText(v.body), mdText(v.layer), String(v.step), mdText(v.detail)]),
    // A review reads the Markdown alone: what the property asks, in one line.
    ...(meaning === null ? [] : ['', `${mdCode(v.property)} asks: ${mdText(meaning)} (outbox-sim's docs/properties.md).`]),
  ];
}

/** What a property of the outbox asks, as its own description says; null for one it does not know (a trace of another version). */
function propertyMeaning(name: string): string | null {
  return outboxProperties(true).find((p) => p.name === name)?.description ?? (name === QUIET_AFTER_HEALING ? QUIET_MEANING : null);
}

/** quiet-after-healing is the liveness phase's own bound, not a property of the list. */
const QUIET_MEANING = 'once faults stop, the system becomes quiet within the liveness phase\'s steps (retrying forever is not quiet)';

/** Renders a trace as Markdown (ends with a newline). */
export function renderMarkdown(trace: Trace, options: RenderOptions): string {
  const v = trace.header.violation;
  // Rebuilt once for the world line and the store table.
  const states = statesOf(trace);
  const heading = v === null ? `outbox-sim trace ${mdCode(trace.id)}: ${mdText(cleanHeading(trace))}` : `outbox-sim: ${mdCode(v.property)} violated under ${mdCode(rulesOf(trace))}`;
  return [
    `## ${heading}`,
    '',
    mdText(titleLine(trace)),
    '',
    ...worldLines(trace, states).flatMap((l) => [mdText(l), '']),
    codeBlock('mermaid', sequenceDiagram(trace)),
    '',
    '### Store changes, step by step',
    '',
    ...storeTable(trace, states),
    '',
    '### Violation',
    '',
    ...violationSection(trace),
    '',
    '### Replay',
    '',
    codeBlock('sh', replayFromHere(trace, options)),
    '',
  ].join('\n');
}
