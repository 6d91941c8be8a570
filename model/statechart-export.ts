/**
 * The lifecycle statechart as data, for tools outside the simulator: a
 * machine config in JSON (XState's `createMachine` config, which Stately's
 * visual editor imports) and a Mermaid `stateDiagram-v2` for a pull request.
 * Both are read off the machine XState normalised (`machine.root`), so they
 * cannot drift from the statechart the simulator runs. Guards and actions
 * appear by name: their code is the rule set's (see lifecycle.ts).
 */
import type { AnyStateMachine, AnyTransitionDefinition } from 'xstate';

/** One transition of the config: target state, guard and action names. */
export interface TransitionConfig {
  target: string;
  guard?: string;
  actions?: string[];
}

/** A flat machine's config: JSON that `createMachine` (and Stately's editor) accepts. */
export interface MachineConfigJson {
  id: string;
  initial: string;
  states: Record<string, { on?: Record<string, TransitionConfig[]>; always?: TransitionConfig[] }>;
}

function nameOf(x: unknown): string {
  if (typeof x === 'string') return x;
  if (typeof x === 'object' && x !== null && typeof (x as { type?: unknown }).type === 'string') return (x as { type: string }).type;
  throw new Error(`statechart export: an inline guard or action has no name (${typeof x})`);
}

function transitionConfig(t: AnyTransitionDefinition): TransitionConfig {
  const targets = t.target ?? [];
  if (targets.length !== 1) throw new Error(`statechart export: ${t.source.key} ${t.eventType} has ${targets.length} targets; the lifecycle's have one`);
  const actions = t.actions.map(nameOf);
  return { target: targets[0].key, ...(t.guard === undefined ? {} : { guard: nameOf(t.guard) }), ...(actions.length === 0 ? {} : { actions }) };
}

/** The machine's config as JSON data (flat machines only, as the lifecycle is). */
export function machineConfig(machine: AnyStateMachine): MachineConfigJson {
  const states: MachineConfigJson['states'] = {};
  for (const [key, node] of Object.entries(machine.root.states)) {
    if (Object.keys(node.states).length > 0) throw new Error(`statechart export: state ${key} is nested; the lifecycle is flat`);
    const on: Record<string, TransitionConfig[]> = {};
    for (const [eventType, defs] of node.transitions) on[eventType] = defs.map(transitionConfig);
    const always = (node.always ?? []).map(transitionConfig);
    states[key] = { ...(Object.keys(on).length === 0 ? {} : { on }), ...(always.length === 0 ? {} : { always }) };
  }
  const initial = machine.root.initial.target[0]?.key;
  if (initial === undefined) throw new Error('statechart export: the machine has no initial state');
  return { id: machine.id, initial, states };
}

/** The label Mermaid shows on a transition's arrow: event, guard (or "otherwise"), and the durable write if any. */
export function edgeLabel(event: string, t: TransitionConfig, guarded: boolean): string {
  const guard = t.guard !== undefined ? ` [${t.guard}]` : guarded ? ' [otherwise]' : '';
  // The action just before `persist` computes the durable write (lifecycle.ts).
  const actions = t.actions ?? [];
  const write = actions.flatMap((a, i) => (actions[i + 1] === 'persist' ? [a] : []));
  return `${event}${guard}${write.length === 0 ? '' : ` / ${write.join(', ')}`}`;
}

/** The machine as a Mermaid `stateDiagram-v2`: one arrow per transition (eventless ones labelled `always`). */
export function mermaidStatechart(machine: AnyStateMachine): string {
  const config = machineConfig(machine);
  const lines = ['stateDiagram-v2', `  [*] --> ${config.initial}`];
  for (const [key, state] of Object.entries(config.states)) {
    const groups: [string, TransitionConfig[]][] = [...Object.entries(state.on ?? {}), ['always', state.always ?? []]];
    for (const [event, defs] of groups) {
      const guarded = defs.some((d) => d.guard !== undefined);
      for (const t of defs) lines.push(`  ${key} --> ${t.target} : ${edgeLabel(event, t, guarded)}`);
    }
  }
  return lines.join('\n');
}
