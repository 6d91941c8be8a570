/**
 * Every kind of the event table renders in every format: for each kind, the
 * first default-budget run of `fail-closed` in which it happens becomes a
 * trace (cut after that step), and the text, Markdown, HTML and Mermaid
 * renderings each show that step; the faults the engine cannot see are
 * flagged and noted, operator actions and healthy steps are not.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import { TELLS_OK_FALSE_APART } from '../../sim/outbox/events/test-plans.ts';
import { BOUNDS_DEFAULT, SEEDS_DEFAULT, seedBounds, steppersFor } from '../../sim/check.ts';
import { runSeed } from '../../sim/core/random.ts';
import { EVENT_KINDS, kindOf } from '../../sim/outbox/events/table.ts';
import { outboxSystem } from '../../sim/outbox/outbox-system.ts';
import { swarmOptions } from '../../sim/outbox/options.ts';
import { outboxHeader, traceSteps } from '../../sim/outbox/record-trace.ts';
import type { World } from '../../sim/outbox/world.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { escapeHtml, renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { mermaidText, sequenceDiagram } from './mermaid.ts';
import { isFaultStep } from './summary.ts';
import { renderText } from './text.ts';

/**
 * For each kind, a trace ending with the first step of that kind: runs of
 * fail-closed, then of a rule set telling ok:false apart from a 400 (in
 * whose worlds alone the broker's refuse-ok-false is offered).
 */
function tracesByKind(): Map<string, Trace> {
  const found = new Map<string, Trace>();
  for (const [rules, skews] of [[failClosed, [false, true]], [TELLS_OK_FALSE_APART, [false]]] as const) tracesOf(rules, skews, found);
  return found;
}

function tracesOf(rules: RuleSet, skews: readonly boolean[], found: Map<string, Trace>): void {
  const origin = { name: rules.name, source: 'catalog', hash: null };
  const steppers = steppersFor(rules, rules);
  for (const skew of skews) {
    for (let seed = 0; seed < SEEDS_DEFAULT && found.size < EVENT_KINDS.length; seed++) {
      const options = swarmOptions(seed, { skew });
      const system = outboxSystem(options, { rules, ...(skew ? { oldRules: rules } : {}) }, steppers);
      const bounds = seedBounds(BOUNDS_DEFAULT, options);
      const quick = runSeed(system, seed, bounds);
      const fresh = [...new Set(quick.steps.flatMap((s) => (s.event === null ? [] : [kindOf(s.event).name])))].filter((k) => !found.has(k));
      if (fresh.length === 0) continue;
      const run = runSeed(system, seed, bounds, true);
      const states = run.states as World[];
      for (const name of fresh) {
        const last = run.steps.findIndex((s) => s.event !== null && kindOf(s.event).name === name);
        const steps = traceSteps(states[0], run.steps.slice(0, last + 1).map((s, i) => ({ ...s, state: states[i + 1] })));
        const pair = { rules, rulesOrigin: origin, oldRules: skew ? rules : null, oldRulesOrigin: skew ? origin : null };
        found.set(name, { id: `kind-${name}`, header: outboxHeader(pair, seed, options, null, 'test', steps.length, null), steps });
      }
    }
  }
}

const traces = tracesByKind();

/** The kinds that move the clock: drawn as a note across the lanes, since no one lane does it. */
const TIME_KINDS = ['tick', 'long-wait'];

describe('every kind of the event table renders in every format', () => {
  it('has a trace for every kind', () => {
    expect(EVENT_KINDS.map((k) => k.name).filter((n) => !traces.has(n))).toEqual([]);
  });

  it.each(EVENT_KINDS.map((k) => k.name))('%s', (name) => {
    const trace = traces.get(name) as Trace;
    const step = trace.steps[trace.steps.length - 1];
    const kind = EVENT_KINDS.find((k) => k.name === name);
    expect(renderText(trace, { path: 't.jsonl' })).toContain(step.label);
    expect(renderHtml(trace, { path: 't.jsonl' })).toContain(`title="${escapeHtml(step.label)}"`);
    const diagram = sequenceDiagram(trace).split('\n');
    // One line per step: an arrow, or for a step no lane takes (time passing) a note across the lanes.
    const drawn = diagram.filter((l) => l.includes(`: ${step.n}. `));
    expect(drawn, diagram.join('\n')).toHaveLength(1);
    expect(drawn[0].trim().startsWith('Note over Producer,Broker:')).toBe(TIME_KINDS.includes(name));
    // Markdown shows the steps in its diagram (its table lists only the store's changes).
    expect(renderMarkdown(trace, { path: 't.jsonl' })).toContain(drawn[0]);
    const flagged = kind?.tag === 'fault' && kind.hidden !== undefined;
    expect(isFaultStep(step, 'outbox')).toBe(flagged);
    // A flagged fault gets a note right after its arrow, saying what went wrong.
    const after = diagram[diagram.indexOf(drawn[0]) + 1] ?? '';
    expect(after.trim().startsWith('Note over') && after.includes(mermaidText('fault: ')), after).toBe(flagged);
  });

  it('draws time passing as a note across the lanes, never as an act of the producer', () => {
    for (const name of TIME_KINDS) {
      const trace = traces.get(name) as Trace;
      const step = trace.steps[trace.steps.length - 1];
      const diagram = sequenceDiagram(trace);
      expect(diagram).toContain(`Note over Producer,Broker: ${step.n}. `);
      expect(diagram).not.toMatch(new RegExp(`Producer->>Producer: ${step.n}\\. `));
    }
  });

  it('flags garbled-unsent (the engine cannot parse the failure reply) and draws it as a broken arrow', () => {
    const trace = traces.get('garbled-unsent') as Trace;
    const step = trace.steps[trace.steps.length - 1];
    expect(isFaultStep(step, 'outbox')).toBe(true);
    expect(sequenceDiagram(trace)).toMatch(new RegExp(`e\\d+-xBroker: ${step.n}\\. `));
  });

  it('does not flag operator actions as faults', () => {
    for (const name of ['requeue', 'requeue-reset', 'resubmit', 'restore']) {
      const trace = traces.get(name) as Trace;
      expect(isFaultStep(trace.steps[trace.steps.length - 1], 'outbox')).toBe(false);
      expect(sequenceDiagram(trace)).toContain('participant Operator');
    }
  });
});
