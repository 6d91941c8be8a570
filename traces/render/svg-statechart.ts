/**
 * The HTML page's lifecycle statechart: the states and transitions of the
 * XState machine (read off `machine.root` by model/statechart-export.ts, the
 * same data `outbox-sim statechart --format json` prints) laid out as plain
 * data, then written as one inline SVG string. States stand in a row in the
 * machine's order (the lifecycle's step order); a transition to a later
 * state arcs above the row, one back to an earlier state arcs below, one to
 * itself loops above its box. Each state is `g.state[data-state=…]` and
 * each arc `g.edge[data-edge="from>to"]`: the page's script lights the
 * states the engines are in at the selected step and the arcs they took.
 */
import type { AnyStateMachine } from 'xstate';
import { machineConfig } from '../../model/statechart-export.ts';
import type { TraceState } from './states.ts';
import { escapeHtml } from './escape.ts';
import { enginesOf } from './step-drawings.ts';

const BOX_W = 112;
const BOX_H = 40;
const GAP = 48;
const LEFT = 12;
/** Height of an arc per state it spans. */
const ARC_RISE = 17;

/** A state placed: its box. */
export interface PlacedState {
  name: string;
  x: number;
  y: number;
  initial: boolean;
}

/** A transition (all of one source and target together) placed: its path and where its label sits. */
export interface PlacedEdge {
  from: string;
  to: string;
  /** The events that take it (`always` for an eventless one), in the machine's order. */
  events: string[];
  d: string;
  /** The arrowhead at the target end: a triangle's points, along the curve's last tangent. */
  head: [number, number][];
  lx: number;
  ly: number;
}

/** The whole statechart as plain data. */
export interface StatechartLayout {
  width: number;
  height: number;
  states: PlacedState[];
  edges: PlacedEdge[];
}

const r = (v: number): string => String(Math.round(v * 10) / 10);

/** A triangle with its tip at (ex, ey), pointing away from the control point (cx, cy). */
function arrowhead(cx: number, cy: number, ex: number, ey: number): [number, number][] {
  const len = Math.hypot(ex - cx, ey - cy) || 1;
  const ux = (ex - cx) / len;
  const uy = (ey - cy) / len;
  return [
    [ex, ey],
    [ex - 8 * ux - 4 * uy, ey - 8 * uy + 4 * ux],
    [ex - 8 * ux + 4 * uy, ey - 8 * uy - 4 * ux],
  ];
}

/** Places the machine's states and transitions (flat machines only, as the lifecycle is). */
export function statechartLayout(machine: AnyStateMachine): StatechartLayout {
  const config = machineConfig(machine);
  const names = Object.keys(config.states);
  const index = new Map(names.map((n, i) => [n, i]));
  const pairs = new Map<string, { from: string; to: string; events: string[] }>();
  for (const [from, state] of Object.entries(config.states)) {
    const groups: [string, { target: string }[]][] = [...Object.entries(state.on ?? {}), ['always', state.always ?? []]];
    for (const [event, defs] of groups) {
      for (const t of defs) {
        const key = `${from}>${t.target}`;
        const pair = pairs.get(key) ?? { from, to: t.target, events: [] };
        if (!pair.events.includes(event)) pair.events.push(event);
        pairs.set(key, pair);
      }
    }
  }
  const rise = (span: number): number => (span === 0 ? 26 : span * ARC_RISE + 12);
  const spanOf = (p: { from: string; to: string }): number => (index.get(p.to) ?? 0) - (index.get(p.from) ?? 0);
  const list = [...pairs.values()];
  // Room above the row for the tallest forward arc (or loop) and its label.
  const boxY = Math.max(0, ...list.filter((p) => spanOf(p) >= 0).map((p) => rise(spanOf(p)))) + 24;
  const states: PlacedState[] = names.map((name, i) => ({ name, x: LEFT + i * (BOX_W + GAP), y: boxY, initial: name === config.initial }));
  const centre = (name: string): number => LEFT + (index.get(name) ?? 0) * (BOX_W + GAP) + BOX_W / 2;
  const edges: PlacedEdge[] = list.map((p) => {
    const a = index.get(p.from) ?? 0;
    const b = index.get(p.to) ?? 0;
    const x1 = centre(p.from);
    if (a === b) {
      const top = boxY - rise(0);
      return { ...p, d: `M${r(x1 - 14)},${r(boxY)}C${r(x1 - 22)},${r(top)} ${r(x1 + 22)},${r(top)} ${r(x1 + 14)},${r(boxY)}`, head: arrowhead(x1 + 22, top, x1 + 14, boxY), lx: x1, ly: top + 2 };
    }
    // Ends a little off the centre, so arcs into and out of one box do not meet at one point.
    const sx = x1 + (b > a ? 10 : -10);
    const ex = centre(p.to) + (b > a ? -10 : 10);
    const above = b > a;
    const edgeY = above ? boxY : boxY + BOX_H;
    const peak = above ? boxY - rise(b - a) : boxY + BOX_H + rise(a - b);
    // A quadratic curve's middle is half-way to its control point; the control point sits at twice the rise.
    const cy = 2 * peak - edgeY;
    return { ...p, d: `M${r(sx)},${r(edgeY)}Q${r((sx + ex) / 2)},${r(cy)} ${r(ex)},${r(edgeY)}`, head: arrowhead((sx + ex) / 2, cy, ex, edgeY), lx: (sx + ex) / 2, ly: above ? peak - 3 : peak + 11 };
  });
  const low = Math.max(0, ...list.filter((p) => spanOf(p) < 0).map((p) => rise(-spanOf(p))));
  return { width: LEFT * 2 + names.length * (BOX_W + GAP) - GAP, height: boxY + BOX_H + low + 22, states, edges };
}

/** The statechart as an inline `<svg>` element; each state box has a line (`text.who`) the page fills with the engines in it. */
export function statechartSvg(layout: StatechartLayout): string {
  const edges = layout.edges.map((e) => {
    const label = e.events.join(', ');
    return (
      `<g class="edge" data-edge="${escapeHtml(`${e.from}>${e.to}`)}"><title>${escapeHtml(`${e.from} → ${e.to}: ${label}`)}</title>` +
      `<path class="arc" d="${e.d}"/><polygon class="arc-head" points="${e.head.map(([x, y]) => `${r(x)},${r(y)}`).join(' ')}"/><text class="edge-label" x="${r(e.lx)}" y="${r(e.ly)}" text-anchor="middle">${escapeHtml(label)}</text></g>`
    );
  });
  const states = layout.states.map(
    (s) =>
      `<g class="state${s.initial ? ' initial' : ''}" data-state="${escapeHtml(s.name)}" data-testid="state-${escapeHtml(s.name)}">` +
      `<rect x="${r(s.x)}" y="${r(s.y)}" width="${BOX_W}" height="${BOX_H}" rx="8"/>` +
      `<text class="state-name" x="${r(s.x + BOX_W / 2)}" y="${r(s.y + 16)}" text-anchor="middle">${escapeHtml(s.name)}</text>` +
      `<text class="who" data-state="${escapeHtml(s.name)}" x="${r(s.x + BOX_W / 2)}" y="${r(s.y + 32)}" text-anchor="middle"></text></g>`,
  );
  return [
    `<svg id="statechart" data-testid="statechart" role="img" aria-label="the engine lifecycle statechart" width="${r(layout.width)}" height="${r(layout.height)}" viewBox="0 0 ${r(layout.width)} ${r(layout.height)}">`,
    ...edges,
    ...states,
    '</svg>',
  ].join('\n');
}

/** Where each engine is at one step: its lane id (`e1`) and lifecycle state. */
export interface EngineAt {
  engine: string;
  state: string;
}

/** The engines' states at every step, and the transitions (`from>to`) engines took into each step. */
export function engineStatesOf(states: readonly TraceState[]): { at: EngineAt[][]; moves: string[][] } {
  const at = states.map((s) => enginesOf(s).map((p) => ({ engine: `e${p.pid}`, state: p.state })));
  const moves = at.map((now, i) => {
    if (i === 0) return [];
    const before = new Map(at[i - 1].map((e) => [e.engine, e.state]));
    return now.flatMap((e) => {
      const was = before.get(e.engine);
      return was === undefined || was === e.state ? [] : [`${was}>${e.state}`];
    });
  });
  return { at, moves };
}
