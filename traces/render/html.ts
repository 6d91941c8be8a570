/**
 * `show --format html`: one self-contained page (inline CSS and script, no
 * network, enforced by its Content-Security-Policy) to step through a trace:
 * the step list; the trace drawn as a sequence diagram and the lifecycle
 * statechart with the engines' states lit, both inline SVG laid out here
 * (svg-sequence.ts, svg-statechart.ts) so the page's script only toggles
 * classes; the store's change at the step as a diff; panels for records,
 * claims, files, the broker and the engines; the violation highlighted. The states are
 * embedded as JSON with `<`, `>` and `&` escaped, so no trace text can close
 * the script element that holds them.
 */
import { traceEnd, type Trace } from '../../sim/trace-format.ts';
import { cleanEnd, phaseWord, replayFromHere, titleLine, type RenderOptions } from './facts.ts';
import { CLIENT_SCRIPT } from './html-client.ts';
import { escapeHtml } from './escape.ts';
import { statesOf } from './states.ts';
import { checkPageBudget } from './bound.ts';
import { changeNotes, isFaultStep, noteContextOf, shownLabel } from './summary.ts';
import { PANELS, viewsOf } from './world-view.ts';
import { lifecycleMachine } from '../../model/lifecycle.ts';
import { lanesOf, stepDrawings } from './step-drawings.ts';
import { sequenceLayout, sequenceSvg } from './svg-sequence.ts';
import { engineStatesOf, statechartLayout, statechartSvg } from './svg-statechart.ts';
import { storeDiffs } from './store-diff.ts';
import { idText } from '../../sim/outbox/id-shape.ts';

export { escapeHtml };

/** JSON that is safe inside a `<script>` element: `<`, `>`, `&` and the JS line separators as escapes. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const PANEL_TITLES: Record<(typeof PANELS)[number], string> = {
  records: 'Records (outbox)',
  claims: 'Claims',
  files: 'Files (live, archived, quarantined)',
  broker: 'Broker',
  engines: 'Engines',
};

const STYLE = `
:root { --fg: #1d1d1f; --muted: #666; --line: #ddd; --cur: #dbeafe; --bad: #b91c1c; --badbg: #fee2e2; --chg: #fef9c3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
header { padding: 12px 16px; border-bottom: 1px solid var(--line); position: sticky; top: 0; background: #fff; z-index: 1; }
h1 { font-size: 18px; margin: 0 0 4px; }
h2 { font-size: 15px; margin: 0 0 6px; }
.muted { color: var(--muted); }
#violation { margin: 8px 0; padding: 8px 12px; border: 2px solid var(--bad); background: var(--badbg); border-radius: 6px; }
#violation.here { box-shadow: 0 0 0 3px var(--bad); }
#violation.clean { border-color: #15803d; background: #dcfce7; }
#violation.unjudged { border-color: #a16207; background: #fef9c3; }
nav { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
button { font: inherit; padding: 2px 10px; }
#step-label { font-weight: 600; margin-left: 8px; }
main { display: grid; grid-template-columns: minmax(240px, 360px) 1fr; gap: 16px; padding: 12px 16px; }
main > div { min-width: 0; }
#steps { margin: 0; padding: 0; list-style: none; font-family: ui-monospace, monospace; font-size: 13px; }
#steps li { padding: 2px 6px; border-left: 4px solid transparent; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#steps li.fault { color: #9a3412; }
#steps li.current { background: var(--cur); border-left-color: #2563eb; }
#steps li.violation { color: var(--bad); font-weight: 700; border-left-color: var(--bad); }
#step-changes { margin: 0 0 12px; }
.panel { margin-bottom: 14px; }
table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
tr.changed td { background: var(--chg); }
.empty { color: var(--muted); margin: 0; }
.scroll { overflow: auto; max-height: 60vh; border: 1px solid var(--line); border-radius: 4px; }
svg text { font: 12px ui-monospace, monospace; fill: var(--fg); }
#sequence .life { stroke: #bbb; stroke-dasharray: 4 4; }
#sequence .head-box { fill: #f5f5f5; stroke: #999; }
#sequence .lane-label { font-weight: 600; }
#sequence g.msg { cursor: pointer; }
#sequence .band { fill: transparent; pointer-events: all; }
#sequence g.msg:hover .band { fill: #f3f4f6; }
#sequence g.msg.current .band { fill: var(--cur); stroke: #2563eb; }
#sequence .line { stroke: #333; fill: none; stroke-width: 1.3; }
#sequence .line.broken { stroke: #b45309; stroke-dasharray: 5 3; }
#sequence .head { fill: #333; }
#sequence .cross { stroke: #b45309; stroke-width: 2; }
#sequence .num { fill: var(--muted); }
#sequence g.fault .label { fill: #9a3412; }
#sequence g.violation .label { fill: var(--bad); font-weight: 700; }
#sequence .note { stroke-width: 1; }
#sequence .note.plain { fill: #f1f5f9; stroke: #94a3b8; }
#sequence .note.fault { fill: #ffedd5; stroke: #ea580c; }
#sequence .note.violation { fill: var(--badbg); stroke: var(--bad); }
#statechart g.state rect { fill: #fff; stroke: #555; }
#statechart g.state.initial rect { stroke-width: 2; }
#statechart g.state.lit rect { fill: #bfdbfe; stroke: #1d4ed8; stroke-width: 2.5; }
#statechart .state-name { font-weight: 600; }
#statechart .who { fill: #1d4ed8; font-weight: 700; }
#statechart .arc { fill: none; stroke: #aaa; }
#statechart .arc-head { fill: #aaa; }
#statechart g.edge.taken .arc-head { fill: #1d4ed8; }
#statechart .edge-label { font-size: 10px; fill: var(--muted); }
#statechart g.edge.taken .arc { stroke: #1d4ed8; stroke-width: 2.5; }
#statechart g.edge.taken .edge-label { fill: #1d4ed8; }
.diff { margin: 0 0 8px; }
.diff tr.del td { background: #fee2e2; }
.diff tr.add td { background: #dcfce7; }
.diff td.chg { font-weight: 700; text-decoration: underline; }
pre { font-size: 12px; overflow: auto; max-height: 400px; }
kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; font-size: 12px; }
`;

function violationBanner(trace: Trace): string {
  const v = trace.header.violation;
  if (v === null) return `<div id="violation" data-testid="violation" class="${traceEnd(trace.header) === 'clean' ? 'clean' : 'unjudged'}">${escapeHtml(cleanEnd(trace))}</div>`;
  return [
    '<div id="violation" data-testid="violation" role="alert">',
    `<strong>Violation: <span data-field="property">${escapeHtml(v.property)}</span></strong> at step <span data-field="step">${v.step}</span>`,
    ` (subject <span data-field="subject">${escapeHtml(idText(v.subject))}</span>, body <span data-field="body">${escapeHtml(v.body)}</span>, layer <span data-field="layer">${escapeHtml(v.layer)}</span>):`,
    ` <span data-field="detail">${escapeHtml(v.detail)}</span>`,
    ' <button type="button" id="to-violation">go to step</button>',
    '</div>',
  ].join('');
}

function stepList(trace: Trace): string {
  const vStep = trace.header.violation?.step ?? null;
  const items = ['<li data-step="0" data-testid="step-0">0 initial world</li>'];
  for (const s of trace.steps) {
    const cls = [isFaultStep(s, trace.header.model) ? 'fault' : '', s.n === vStep ? 'violation' : ''].filter((c) => c !== '').join(' ');
    const mark = s.n === vStep ? ' <- violation' : '';
    items.push(`<li data-step="${s.n}" data-testid="step-${s.n}"${cls === '' ? '' : ` class="${cls}"`} title="${escapeHtml(s.label)}">${s.n} ${escapeHtml(shownLabel(s))}${mark}</li>`);
  }
  return `<ol id="steps" data-testid="steps">${items.join('\n')}</ol>`;
}

/** Renders a trace as one self-contained HTML page. */
export function renderHtml(trace: Trace, options: RenderOptions): string {
  const states = statesOf(trace);
  // Every state is embedded (and drawn as panels): refuse before building them.
  checkPageBudget(trace, states);
  const views = viewsOf(states);
  const steps = [
    { n: 0, label: 'initial world', group: '', phase: '', notes: [] as string[] },
    ...trace.steps.map((s, i) => ({ n: s.n, label: shownLabel(s), group: s.group, phase: phaseWord(s.phase), notes: changeNotes(states[i], states[i + 1], s.change, noteContextOf(trace, s)).map((c) => c.text) })),
  ];
  const engines = engineStatesOf(states);
  const outbox = trace.header.model === 'outbox';
  const data = { id: trace.id, header: trace.header, violation: trace.header.violation, panels: PANELS, steps, views, states, diffs: storeDiffs(views), engines: engines.at, moves: engines.moves };
  const sequence = sequenceSvg(sequenceLayout(lanesOf(trace, states), stepDrawings(trace, states), trace.header.violation));
  // The lifecycle statechart is the outbox engines' machine; other models have no engines to light.
  const statechart = outbox
    ? `<section class="panel" id="panel-statechart" data-testid="panel-statechart"><h2>Engine lifecycle</h2><p class="muted">The XState machine's states in step order; arcs above lead to a later state, arcs below back to an earlier one, arrowheads at the state they lead to. Lit: the states the engines are in at this step; blue arcs: the moves this step made.</p><div class="scroll">${statechartSvg(statechartLayout(lifecycleMachine))}</div></section>`
    : '';
  const v = trace.header.violation;
  const title = `outbox-sim trace ${trace.id}${v === null ? '' : `: ${v.property}`}`;
  const panels = PANELS.map(
    (name) => `<section class="panel" id="panel-${name}" data-testid="panel-${name}"><h2>${escapeHtml(PANEL_TITLES[name])}</h2><div class="panel-body"></div></section>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body data-step="0">
<header>
<h1>${escapeHtml(title)}</h1>
<div class="muted" id="trace-title">${escapeHtml(titleLine(trace))}</div>
${violationBanner(trace)}
<nav id="controls">
<button type="button" id="first" title="first step (Home)">|&lt;</button>
<button type="button" id="prev" title="previous step (ArrowLeft or k)">&lt; prev</button>
<button type="button" id="next" title="next step (ArrowRight or j)">next &gt;</button>
<button type="button" id="last" title="last step (End)">&gt;|</button>
<span id="step-label" data-testid="step-label"></span>
</nav>
<div class="muted">Keys: <kbd>&rarr;</kbd>/<kbd>j</kbd> next, <kbd>&larr;</kbd>/<kbd>k</kbd> back, <kbd>Home</kbd>/<kbd>End</kbd> first/last, <kbd>v</kbd> the violation. Replay: <code id="replay">${escapeHtml(replayFromHere(trace, options))}</code></div>
</header>
<main>
<aside><h2>Steps</h2>
${stepList(trace)}
</aside>
<div>
<section class="panel" id="panel-sequence" data-testid="panel-sequence"><h2>Sequence</h2><p class="muted">Click a message to go to its step; broken arrows and orange notes are faults.</p><div class="scroll" id="sequence-scroll">${sequence}</div></section>
${statechart}
<section class="panel" id="panel-changes" data-testid="panel-changes"><h2>This step changed</h2><ul id="step-changes"></ul></section>
<section class="panel" id="panel-diff" data-testid="panel-diff"><h2>The store before and after this step</h2><div id="store-diff"></div></section>
${panels}
<details id="panel-state" data-testid="panel-state"><summary>The whole state (JSON)</summary><pre id="state-json"></pre></details>
</div>
</main>
<script type="application/json" id="trace-data">${scriptJson(data)}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}
