/**
 * Paths through the lifecycle statechart, found by XState's own graph tools
 * (`xstate/graph`): the shortest path to every state the machine reaches
 * under a finite set of observations, and from those, a shortest path that
 * takes each of its transitions. Coverage is read off the machine's own
 * definition (`machine.root`), so a transition added to the statechart is
 * either reached by some path or reported as uncovered: nobody lists it by
 * hand.
 *
 * Which transitions a step took is what XState itself reports: the
 * `@xstate.microstep` inspection events carry the transition definitions of
 * each microstep, eventless ones included.
 */
import { createActor, type AnyStateMachine, type AnyTransitionDefinition, type Snapshot } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { EngineContext, EngineEvent, EngineInput } from './lifecycle.ts';
import { foundRead, freshRecord } from './record.ts';
import type { ClaimView, OutboxRecord, RecordRead, Reply, ResultFile } from './types.ts';

/** A transition of the machine: `state:EVENT:i` (i-th candidate for that event) or `state:always:i`. */
export type TransitionId = string;

/** One step of a path: the event sent, the transitions it took (eventless ones included) and the state value it ends in. */
export interface PathStep {
  event: EngineEvent;
  taken: TransitionId[];
  state: string;
}

/** The machine's snapshot as the graph tools hand it over. */
type EngineSnapshot = Snapshot<unknown> & { value: unknown; context: EngineContext };

/** Every state and transition of a flat machine, from its own definition. */
export function machineShape(machine: AnyStateMachine): { states: string[]; transitions: TransitionId[] } {
  const states: string[] = [];
  const transitions: TransitionId[] = [];
  for (const [key, node] of Object.entries(machine.root.states)) {
    states.push(key);
    for (const [eventType, defs] of node.transitions) defs.forEach((_, i) => transitions.push(`${key}:${eventType}:${i}`));
    node.always?.forEach((_, i) => transitions.push(`${key}:always:${i}`));
  }
  return { states, transitions };
}

/** The id of a transition definition (see {@link TransitionId}). */
function transitionId(t: AnyTransitionDefinition): TransitionId {
  const source = t.source;
  const key = source.key;
  const always = source.always?.indexOf(t) ?? -1;
  if (always >= 0) return `${key}:always:${always}`;
  return `${key}:${t.eventType}:${source.transitions.get(t.eventType)?.indexOf(t) ?? -1}`;
}

/** The transitions XState takes for `event` from `snapshot`, eventless ones included, as its inspection reports them. */
export function transitionsTaken(machine: AnyStateMachine, snapshot: EngineSnapshot, event: EngineEvent): { taken: TransitionId[]; state: string } {
  const taken: TransitionId[] = [];
  const actor = createActor(machine, {
    snapshot: snapshot as never,
    inspect: (e) => {
      if (e.type === '@xstate.microstep') for (const t of (e as { _transitions: AnyTransitionDefinition[] })._transitions) taken.push(transitionId(t));
    },
  });
  actor.start();
  taken.length = 0; // starting from a persisted snapshot takes no transition; only what the event does counts
  actor.send(event);
  const state = String(actor.getSnapshot().value);
  actor.stop();
  return { taken, state };
}

/** Where the paths start: an engine's input. */
export const PATHS_INPUT: EngineInput = { pid: 7, attemptsMax: 3 };

/**
 * The observations an engine can make of one id, as events: a file of two
 * generations (the second a different body), every kind of record read
 * (READY, QUEUED, DELIVERED, PARKED, corrupt, absent, a newer schema), every claim,
 * every broker reply. Small enough to search, and every state and transition
 * of the lifecycle is reached with it (the test says so).
 */
export function lifecycleEvents(): EngineEvent[] {
  const files: ResultFile[] = [
    { id: 'a', body: 'A', generation: 1 },
    { id: 'a', body: 'B', generation: 2 },
  ];
  const ready = freshRecord('A', 0);
  const records: OutboxRecord[] = [
    ready,
    { ...ready, status: 'QUEUED' },
    { ...ready, status: 'DELIVERED' },
    { ...ready, status: 'PARKED', reason: 'permanent-refusal' },
  ];
  const reads: RecordRead[] = [
    { kind: 'absent' },
    { kind: 'corrupt' },
    { kind: 'unknown-version', schema: 99 },
    ...records.map((record): RecordRead => foundRead(record)),
  ];
  const claims: ClaimView[] = [
    { kind: 'free' },
    { kind: 'torn' },
    { kind: 'held', mine: true, ownerAlive: true },
    { kind: 'held', mine: false, ownerAlive: true },
    { kind: 'held', mine: false, ownerAlive: false },
  ];
  const replies: Reply[] = ['ok', 'refused-400', 'conflict-409', 'ok-false', 'unavailable-503', 'timeout', 'garbled-200'];
  const events: EngineEvent[] = [];
  for (const file of files) for (const read of reads) for (const claim of claims) events.push({ type: 'SCAN', file, read, claim });
  for (const read of reads) events.push({ type: 'DRAIN', id: 'a', read });
  for (const read of reads) for (const claim of claims) for (const live of [...files, null]) events.push({ type: 'STEP', read, claim, live });
  for (const reply of replies) for (const claim of claims) events.push({ type: 'POST', reply, claim });
  return events;
}

/** A state's identity for the search: its value and the engine's memory, less the last durable effect (data leaving the machine, never read by a guard). */
function serializeState(snapshot: EngineSnapshot): string {
  const { effect: _effect, ...memory } = snapshot.context;
  return JSON.stringify([snapshot.value, memory]);
}

/** What the graph search found in one machine. */
export interface LifecyclePaths {
  /** Per state value reached, the shortest path to it. */
  states: Map<string, PathStep[]>;
  /** Per transition taken, a shortest path whose last step takes it. */
  transitions: Map<TransitionId, PathStep[]>;
}

/**
 * Shortest paths (XState's `getShortestPaths`) to every state reached, and
 * through every transition taken, with the events of `events` that each
 * state handles.
 */
export function lifecyclePaths(machine: AnyStateMachine, events: readonly EngineEvent[] = lifecycleEvents()): LifecyclePaths {
  // A state is sent the events it names (as the world does: SCAN and DRAIN when idle, POST when posting, STEP otherwise).
  const handled = (snapshot: EngineSnapshot): EngineEvent[] => {
    const node = machine.root.states[String(snapshot.value)] as AnyStateMachine['root'] | undefined;
    return events.filter((e) => node?.transitions.has(e.type) === true);
  };
  const paths = getShortestPaths(machine, {
    input: PATHS_INPUT,
    events: ((s: EngineSnapshot) => handled(s)) as never,
    serializeState: (s) => serializeState(s as EngineSnapshot),
  });
  const stepsOf = (p: (typeof paths)[number]): PathStep[] =>
    // The first step is the machine's start (its init event), not something an engine observes.
    p.steps.slice(1).map((s, i) => ({ event: s.event as EngineEvent, ...transitionsTaken(machine, p.steps[i].state as EngineSnapshot, s.event as EngineEvent) }));
  // Shortest first, so each state and transition keeps the shortest path that reaches it.
  const sorted = [...paths].sort((a, b) => a.steps.length - b.steps.length);
  const states = new Map<string, PathStep[]>();
  const transitions = new Map<TransitionId, PathStep[]>();
  for (const p of sorted) {
    const value = String((p.state as EngineSnapshot).value);
    const head = stepsOf(p);
    if (!states.has(value)) states.set(value, head);
    for (const event of handled(p.state as EngineSnapshot)) {
      const { taken, state } = transitionsTaken(machine, p.state as EngineSnapshot, event);
      for (const t of taken) if (!transitions.has(t)) transitions.set(t, [...head, { event, taken, state }]);
    }
  }
  return { states, transitions };
}

/** What the paths of several machines (one statechart under several rule sets) leave unreached. */
export function uncovered(machine: AnyStateMachine, found: readonly LifecyclePaths[]): { states: string[]; transitions: TransitionId[] } {
  const shape = machineShape(machine);
  return {
    states: shape.states.filter((s) => !found.some((f) => f.states.has(s))),
    transitions: shape.transitions.filter((t) => !found.some((f) => f.transitions.has(t))),
  };
}
