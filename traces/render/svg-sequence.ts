/**
 * The HTML page's sequence diagram: a trace's lanes and step drawings
 * (step-drawings.ts, the same words the Mermaid diagram uses) laid out as
 * plain data, then written as one inline SVG string. Every step is a group
 * `g.msg[data-step=n]` the page's script highlights and listens to for
 * clicks; faults and the violation carry classes of their own. No markers,
 * no `url(...)` references, no namespace URL: the page fetches nothing.
 */
import type { TraceHeader } from '../../sim/trace-format.ts';
import { escapeHtml } from './escape.ts';
import type { Lane, StepDrawing } from './step-drawings.ts';

/** Layout constants, in SVG user units (pixels at zoom 1). */
const LANE_W = 170;
const LEFT = 40;
const HEAD_H = 40;
const TOP = HEAD_H + 16;
const ROW_H = 30;
const NOTE_H = 22;
const LOOP_W = 28;
/** Visible characters of a message or note; the full text is its tooltip (`<title>`). */
export const TEXT_CHARS_MAX = 80;
/** The width of one character of the diagram's 12px monospace text, a little over, so boxes hold their text. */
const CHAR_W = 7.4;

/** A lane placed: its centre line's x. */
export interface PlacedLane extends Lane {
  x: number;
}

/** A note placed: a box across lanes. */
export interface PlacedNote {
  x: number;
  w: number;
  y: number;
  text: string;
  /** `fault` (the table's note on a misbehaving world), `violation`, or `plain`. */
  kind: 'fault' | 'violation' | 'plain';
}

/** One step placed: its band [y, y + h), its arrow (or loop) and its notes. */
export interface PlacedStep {
  n: number;
  y: number;
  h: number;
  /** `arrow` between two lanes, `self` a loop on one lane, `none` a note only. */
  shape: 'arrow' | 'self' | 'none';
  x1: number;
  x2: number;
  /** The arrow's y. */
  ay: number;
  broken: boolean;
  text: string;
  notes: PlacedNote[];
  classes: string[];
}

/** The whole diagram as plain data. */
export interface SequenceLayout {
  width: number;
  height: number;
  lanes: PlacedLane[];
  steps: PlacedStep[];
}

function shorten(s: string): string {
  return s.length <= TEXT_CHARS_MAX ? s : `${s.slice(0, TEXT_CHARS_MAX - 1)}…`;
}

/** How far a text drawn from x reaches to the right. */
function textEnd(x: number, s: string): number {
  return x + shorten(s).length * CHAR_W;
}

/** Lanes a drawing names (`from`, `to`, each of `note.over`), in order of first mention. */
function named(d: StepDrawing): string[] {
  return [d.from, d.to, ...(d.note === undefined ? [] : d.note.over.split(','))].map((s) => s.trim());
}

/**
 * Places lanes and steps. Step 0 (the initial world) is a band of its own so
 * the highlight has somewhere to be before the first step. A lane a drawing
 * names that `lanes` lacks is added at the right rather than dropped.
 */
export function sequenceLayout(lanes: readonly Lane[], drawings: readonly StepDrawing[], violation: TraceHeader['violation']): SequenceLayout {
  const all: Lane[] = [...lanes];
  for (const d of drawings) for (const id of named(d)) if (!all.some((l) => l.id === id)) all.push({ id, label: id });
  const placed: PlacedLane[] = all.map((l, i) => ({ ...l, x: LEFT + LANE_W / 2 + i * LANE_W }));
  const xOf = new Map(placed.map((l) => [l.id, l.x]));
  const x = (id: string): number => xOf.get(id.trim()) ?? placed[0].x;
  const span = (over: string[]): { x: number; w: number } => {
    const xs = over.map(x);
    const lo = Math.min(...xs) - LANE_W / 2 + 8;
    const hi = Math.max(...xs) + LANE_W / 2 - 8;
    return { x: lo, w: hi - lo };
  };
  // A note is as wide as the lanes it is over, or as its text when that is longer.
  const noteBox = (over: string[], text: string): { x: number; w: number } => {
    const b = span(over);
    return { x: b.x, w: Math.max(b.w, textEnd(12, text)) };
  };
  const steps: PlacedStep[] = [];
  let y = TOP;
  const all0 = noteBox([placed[0].id, placed[placed.length - 1].id], '0. initial world');
  steps.push({ n: 0, y, h: ROW_H, shape: 'none', x1: 0, x2: 0, ay: y, broken: false, text: '', notes: [{ ...all0, y: y + 4, text: '0. initial world', kind: 'plain' }], classes: ['msg'] });
  y += ROW_H;
  for (const d of drawings) {
    const notes: { over: string[]; text: string; kind: PlacedNote['kind'] }[] = [];
    if (d.note !== undefined) notes.push({ over: d.note.over.split(','), text: d.note.text, kind: d.note.text.startsWith('fault') ? 'fault' : 'plain' });
    if (d.violation && violation !== null) {
      const over = ['Outbox', 'Broker'].filter((id) => xOf.has(id));
      notes.push({ over: over.length === 0 ? [placed[0].id] : over, text: `VIOLATION ${violation.property}: ${violation.detail}`, kind: 'violation' });
    }
    const arrowH = d.noteOnly ? 4 : ROW_H;
    steps.push({
      n: d.n,
      y,
      h: arrowH + notes.length * (NOTE_H + 4) + (notes.length > 0 ? 4 : 0),
      shape: d.noteOnly ? 'none' : d.from.trim() === d.to.trim() ? 'self' : 'arrow',
      x1: x(d.from),
      x2: x(d.to),
      ay: y + ROW_H - 9,
      broken: d.broken,
      text: d.text,
      notes: notes.map((nt, i) => ({ ...noteBox(nt.over, nt.text), y: y + arrowH + i * (NOTE_H + 4), text: nt.text, kind: nt.kind })),
      classes: ['msg', ...(d.fault || d.broken ? ['fault'] : []), ...(d.violation ? ['violation'] : [])],
    });
    y += steps[steps.length - 1].h;
  }
  // Wide enough for the lanes and for every text: the highlight band spans it all.
  const ends = steps.flatMap((st) => [
    ...st.notes.map((nt) => nt.x + nt.w),
    st.shape === 'arrow' ? textEnd(Math.min(st.x1, st.x2) + 6, st.text) : st.shape === 'self' ? textEnd(st.x1 + LOOP_W + 6, st.text) : 0,
  ]);
  return { width: Math.ceil(Math.max(LEFT + placed.length * LANE_W, ...ends) + 12), height: y + 10, lanes: placed, steps };
}

const r = (v: number): string => String(Math.round(v * 10) / 10);

/** A filled triangle at (x, y) pointing right (dir 1) or left (dir -1): an arrowhead drawn, not referenced. */
function head(x: number, y: number, dir: 1 | -1): string {
  return `<polygon class="head" points="${r(x)},${r(y)} ${r(x - dir * 8)},${r(y - 4)} ${r(x - dir * 8)},${r(y + 4)}"/>`;
}

/** A cross at (x, y): the broken arrow's end (the Mermaid diagram's `-x`). */
function cross(x: number, y: number): string {
  return `<path class="cross" d="M${r(x - 5)},${r(y - 5)}L${r(x + 5)},${r(y + 5)}M${r(x - 5)},${r(y + 5)}L${r(x + 5)},${r(y - 5)}"/>`;
}

function stepSvg(st: PlacedStep, width: number): string {
  const parts: string[] = [`<title>${escapeHtml(st.n === 0 ? 'initial world' : st.text)}</title>`, `<rect class="band" x="0" y="${r(st.y)}" width="${r(width)}" height="${r(st.h)}"/>`];
  if (st.n > 0) parts.push(`<text class="num" x="4" y="${r(st.ay + 4)}">${st.n}</text>`);
  const line = st.broken ? 'line broken' : 'line';
  if (st.shape === 'arrow') {
    const dir = st.x2 > st.x1 ? 1 : -1;
    parts.push(`<line class="${line}" x1="${r(st.x1)}" y1="${r(st.ay)}" x2="${r(st.x2)}" y2="${r(st.ay)}"/>`);
    parts.push(st.broken ? cross(st.x2, st.ay) : head(st.x2, st.ay, dir));
    parts.push(`<text class="label" x="${r(Math.min(st.x1, st.x2) + 6)}" y="${r(st.ay - 5)}">${escapeHtml(shorten(st.text))}</text>`);
  } else if (st.shape === 'self') {
    const top = st.ay - 8;
    parts.push(`<path class="${line}" d="M${r(st.x1)},${r(top)}H${r(st.x1 + LOOP_W)}V${r(st.ay + 4)}H${r(st.x1 + 8)}"/>`);
    parts.push(st.broken ? cross(st.x1 + 4, st.ay + 4) : head(st.x1, st.ay + 4, -1));
    parts.push(`<text class="label" x="${r(st.x1 + LOOP_W + 6)}" y="${r(st.ay)}">${escapeHtml(shorten(st.text))}</text>`);
  }
  for (const nt of st.notes) {
    parts.push(`<rect class="note ${nt.kind}" x="${r(nt.x)}" y="${r(nt.y)}" width="${r(nt.w)}" height="${NOTE_H}" rx="3"/>`);
    parts.push(`<text class="note-text" x="${r(nt.x + 6)}" y="${r(nt.y + NOTE_H - 7)}">${escapeHtml(shorten(nt.text))}</text>`);
  }
  return `<g class="${st.classes.join(' ')}" data-step="${st.n}" data-testid="msg-${st.n}">${parts.join('')}</g>`;
}

/** The diagram as an inline `<svg>` element (no namespace URL: HTML's parser gives inline SVG its namespace). */
export function sequenceSvg(layout: SequenceLayout): string {
  const { width, height } = layout;
  const lanes = layout.lanes.map(
    (l) =>
      `<g class="lane" data-lane="${escapeHtml(l.id)}"><line class="life" x1="${r(l.x)}" y1="${HEAD_H}" x2="${r(l.x)}" y2="${r(height)}"/>` +
      `<rect class="head-box" x="${r(l.x - LANE_W / 2 + 6)}" y="4" width="${LANE_W - 12}" height="${HEAD_H - 10}" rx="4"/>` +
      `<text class="lane-label" x="${r(l.x)}" y="${HEAD_H - 15}" text-anchor="middle">${escapeHtml(shorten(l.label))}</text></g>`,
  );
  return [
    `<svg id="sequence" data-testid="sequence" role="img" aria-label="sequence diagram of the trace" width="${r(width)}" height="${r(height)}" viewBox="0 0 ${r(width)} ${r(height)}">`,
    ...lanes,
    ...layout.steps.map((st) => stepSvg(st, width)),
    '</svg>',
  ].join('\n');
}
