// @vitest-environment jsdom
/**
 * The exported statechart is the machine: the JSON config builds, with
 * XState's own `createMachine`, a machine with the same states and
 * transitions (targets and guards), and the Mermaid diagram parses with
 * Mermaid's own parser (which needs a DOM: this file runs under jsdom) into
 * one arrow per transition, each with its event and guard.
 */
import mermaid from 'mermaid';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { lifecycleMachine } from './lifecycle.ts';
import { machineShape } from './lifecycle-paths.ts';
import { machineConfig, mermaidStatechart } from './statechart-export.ts';

beforeAll(() => mermaid.initialize({ startOnLoad: false }));

/** Every transition of the machine as the statechart defines it: source, event (`always` for eventless), target, guard. */
function definedTransitions() {
  const out: { source: string; event: string; target: string; guard: string | null }[] = [];
  for (const [key, node] of Object.entries(lifecycleMachine.root.states)) {
    const groups = [...node.transitions.entries(), ['always', node.always ?? []] as const];
    for (const [event, defs] of groups) {
      // An unguarded transition after guarded ones is the group's "otherwise".
      const guarded = defs.some((d) => d.guard !== undefined);
      for (const d of defs) {
        out.push({ source: key, event, target: d.target?.[0]?.key ?? '?', guard: typeof d.guard === 'string' ? d.guard : guarded ? 'otherwise' : null });
      }
    }
  }
  return out;
}

async function relations(source: string): Promise<{ id1: string; id2: string; relationTitle?: string }[]> {
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
  const db = diagram.db as { getRelations?: () => { id1: string; id2: string; relationTitle?: string }[] };
  if (db.getRelations === undefined) throw new Error(`not a state diagram: ${diagram.type}`);
  return db.getRelations();
}

describe('statechart --format json', () => {
  it("builds, with XState's createMachine, a machine with every state and transition of the lifecycle", () => {
    const json = JSON.parse(JSON.stringify(machineConfig(lifecycleMachine))) as Parameters<typeof createMachine>[0];
    const rebuilt = createMachine(json);
    expect(machineShape(rebuilt)).toEqual(machineShape(lifecycleMachine));
    for (const [key, node] of Object.entries(rebuilt.root.states)) {
      const original = lifecycleMachine.root.states[key];
      for (const [event, defs] of node.transitions) {
        expect(defs.map((d) => [d.target?.[0]?.key, d.guard])).toEqual(original.transitions.get(event)?.map((d) => [d.target?.[0]?.key, d.guard]));
      }
      expect((node.always ?? []).map((d) => [d.target?.[0]?.key, d.guard])).toEqual((original.always ?? []).map((d) => [d.target?.[0]?.key, d.guard]));
    }
    expect(rebuilt.root.initial.target[0]?.key).toBe('idle');
  });
});

describe('statechart --format mermaid', () => {
  it("parses with Mermaid's parser, with every state and one arrow per transition of the machine", async () => {
    const source = mermaidStatechart(lifecycleMachine);
    await expect(mermaid.parse(source)).resolves.toMatchObject({ diagramType: 'stateDiagram' });
    const parsed = await relations(source);
    const expected = definedTransitions();
    // One arrow per transition, plus the start arrow.
    expect(parsed).toHaveLength(expected.length + 1);
    for (const t of expected) {
      const title = `${t.event}${t.guard === null ? '' : ` [${t.guard}]`}`;
      const match = parsed.filter((r) => r.id1 === t.source && r.id2 === t.target && (r.relationTitle ?? '').split(' / ')[0] === title);
      expect([t, match.length]).toEqual([t, 1]);
    }
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(source);
    const states = [...(diagram.db as { getStates: () => Map<string, unknown> }).getStates().keys()];
    expect(states).toEqual(expect.arrayContaining(machineShape(lifecycleMachine).states));
  });

  it('a diagram missing a transition fails the check (so the test above can fail)', async () => {
    const source = mermaidStatechart(lifecycleMachine).replace(/\n {2}preSend --> posting : always[^\n]*/, '');
    expect((await relations(source)).length).toBe(definedTransitions().length);
    await expect(mermaid.parse(`${source}\n  preSend --> : always`)).rejects.toThrow(/Parse error/);
  });
});
