/**
 * The fast path: a stepper derived automatically from the lifecycle
 * statechart. It reads the machine XState itself normalised (`machine.root`:
 * each state's transitions per event type and its eventless transitions) and
 * the implementations provided for the rule set, and runs them without
 * building snapshots. It supports exactly the statechart features the
 * lifecycle uses (flat states, guarded transitions, eventless transitions,
 * `assign` and `persist` actions) and refuses to compile anything else, so it
 * cannot silently diverge from XState's `transition()`; a differential test
 * (`compiled-stepper.test.ts`) holds the two equal.
 */
import { engineMachine, type EngineContext, type EngineEvent, type LifecycleState } from '../../model/lifecycle.ts';
import type { RuleSet } from '../../model/rules.ts';
import type { Effect } from '../../model/types.ts';
import type { EngineStep, Stepper } from './stepper.ts';

type Args = { context: EngineContext; event: EngineEvent };
type GuardFn = (args: Args) => boolean;
type ActionFn = (ctx: EngineContext, event: EngineEvent, effects: Effect[]) => EngineContext;

interface CompiledTransition {
  guard: GuardFn | null;
  actions: ActionFn[];
  target: LifecycleState | null;
  /** The target's compiled state (resolved once every state is compiled): no look-up by name per step. */
  targetNode: CompiledState | null;
}

interface CompiledState {
  on: Map<string, CompiledTransition[]>;
  always: CompiledTransition[];
}

/**
 * A copy of an engine's memory, every field written out: an assign copies it at
 * nearly every engine step, and object spread (`{ ...ctx, ...patch }`) of an
 * object made by a spread took V8's slow path, ten times this. The type fails
 * to compile when the context gains a field not copied here, and an assign that
 * writes a field the context does not have is refused (as XState would keep it).
 */
export function copyContext(c: EngineContext): EngineContext {
  const copy: { [K in keyof Required<EngineContext>]: EngineContext[K] } = {
    pid: c.pid,
    attemptsMax: c.attemptsMax,
    id: c.id,
    file: c.file,
    envelope: c.envelope,
    outcome: c.outcome,
    pending: c.pending,
    effect: c.effect,
  };
  return copy;
}

/** No transitions (shared, not a new array per step). */
const NONE: readonly CompiledTransition[] = [];

const CONTEXT_FIELDS: ReadonlySet<string> = new Set(Object.keys(copyContext({} as EngineContext)));

/** Bound on eventless transitions taken in one step (a cycle would be a statechart bug). */
const EVENTLESS_STEPS_MAX = 16;

/** Compiles the rule set's statechart into a fast stepper. */
export function compiledStepper(rules: RuleSet): Stepper {
  const machine = engineMachine(rules);
  const impl = machine.implementations as unknown as {
    guards: Record<string, GuardFn>;
    actions: Record<string, unknown>;
  };

  const compileGuard = (guard: unknown): GuardFn | null => {
    if (guard === undefined || guard === null) return null;
    if (typeof guard === 'string') {
      const fn = impl.guards[guard];
      if (typeof fn !== 'function') throw new Error(`fast path: guard ${guard} has no implementation`);
      return fn;
    }
    throw new Error(`fast path: unsupported guard form ${JSON.stringify(guard)}`);
  };

  const compileAction = (action: unknown): ActionFn => {
    if (typeof action === 'string') {
      const a = impl.actions[action] as { type?: string; assignment?: unknown } | undefined;
      if (a === undefined || a.type !== 'xstate.assign') throw new Error(`fast path: action ${action} is not an assign`);
      const assignment = a.assignment;
      if (typeof assignment === 'function') {
        const fn = assignment as (args: Args) => Partial<EngineContext>;
        return (ctx, event) => {
          const patch = fn({ context: ctx, event });
          const next = copyContext(ctx);
          for (const k in patch) {
            if (!CONTEXT_FIELDS.has(k)) throw new Error(`fast path: assign ${action} writes ${k}, a field the context does not have`);
            (next as unknown as Record<string, unknown>)[k] = patch[k as keyof EngineContext];
          }
          return next;
        };
      }
      if (typeof assignment === 'object' && assignment !== null) {
        const entries = Object.entries(assignment as Record<string, unknown>);
        for (const [k] of entries) if (!CONTEXT_FIELDS.has(k)) throw new Error(`fast path: assign ${action} writes ${k}, a field the context does not have`);
        return (ctx, event) => {
          const next = copyContext(ctx) as unknown as Record<string, unknown>;
          for (const [k, v] of entries) next[k] = typeof v === 'function' ? (v as (args: Args) => unknown)({ context: ctx, event }) : v;
          return next as unknown as EngineContext;
        };
      }
      throw new Error(`fast path: assign ${action} has an unsupported assignment`);
    }
    if (typeof action === 'object' && action !== null && (action as { type?: unknown }).type === 'persist') {
      const params = (action as { params?: unknown }).params;
      return (ctx, event, effects) => {
        const p = typeof params === 'function' ? (params as (args: Args) => Effect | null)({ context: ctx, event }) : (params as Effect | null);
        if (p) effects.push(p);
        return ctx;
      };
    }
    throw new Error(`fast path: unsupported action ${JSON.stringify(action)}`);
  };

  const compileTransition = (t: { guard?: unknown; actions: readonly unknown[]; target?: readonly { key: string }[] }): CompiledTransition => ({
    guard: compileGuard(t.guard),
    actions: t.actions.map(compileAction),
    target: t.target && t.target.length > 0 ? (t.target[0].key as LifecycleState) : null,
    targetNode: null,
  });

  const states = new Map<string, CompiledState>();
  for (const [key, node] of Object.entries(machine.root.states)) {
    if (Object.keys(node.states).length > 0 || node.type !== 'atomic') throw new Error(`fast path: state ${key} is not flat`);
    if (node.entry.length > 0 || node.exit.length > 0) throw new Error(`fast path: state ${key} has entry/exit actions`);
    const on = new Map<string, CompiledTransition[]>();
    for (const [eventType, defs] of node.transitions) {
      if (eventType.startsWith('xstate.')) throw new Error(`fast path: state ${key} has a delayed or internal transition`);
      on.set(eventType, defs.map((d) => compileTransition(d as never)));
    }
    states.set(key, { on, always: (node.always ?? []).map((d) => compileTransition(d as never)) });
  }
  // Each transition's target as its compiled state, so a step follows nodes rather than looking states up by name.
  for (const node of states.values()) {
    for (const t of [...[...node.on.values()].flat(), ...node.always]) {
      if (t.target === null) continue;
      const target = states.get(t.target);
      if (target === undefined) throw new Error(`fast path: unknown target state ${t.target}`);
      t.targetNode = target;
    }
  }

  const pick = (candidates: readonly CompiledTransition[], ctx: EngineContext, event: EngineEvent): CompiledTransition | null => {
    // One argument object for all the candidates' guards (they read it, keep nothing of it: the
    // memos of model/lifecycle.ts compare its fields), not one per guard asked.
    let args: Args | null = null;
    for (let i = 0; i < candidates.length; i++) {
      const t = candidates[i];
      if (t.guard === null) return t;
      args ??= { context: ctx, event };
      if (t.guard(args)) return t;
    }
    return null;
  };

  return (memory, event): EngineStep => {
    const node = states.get(memory.state);
    if (node === undefined) throw new Error(`fast path: unknown state ${memory.state}`);
    const t = pick(node.on.get(event.type) ?? NONE, memory.ctx, event);
    const effects: Effect[] = [];
    let ctx = memory.ctx;
    let state = memory.state;
    let at = node;
    if (t !== null) {
      const actions = t.actions;
      for (let i = 0; i < actions.length; i++) ctx = actions[i](ctx, event, effects);
      if (t.targetNode !== null && t.target !== null) {
        state = t.target;
        at = t.targetNode;
      }
    }
    // As in XState's macrostep, eventless transitions are checked after every event, taken or not.
    for (let i = 0; i < EVENTLESS_STEPS_MAX; i++) {
      const e = at.always.length === 0 ? null : pick(at.always, ctx, event);
      if (e === null) {
        if (ctx.effect !== null) {
          ctx = copyContext(ctx);
          ctx.effect = null;
        }
        return { state, ctx, effects };
      }
      const actions = e.actions;
      for (let k = 0; k < actions.length; k++) ctx = actions[k](ctx, event, effects);
      if (e.targetNode !== null && e.target !== null) {
        state = e.target;
        at = e.targetNode;
      }
    }
    throw new Error(`fast path: more than ${EVENTLESS_STEPS_MAX} eventless transitions from ${memory.state}`);
  };
}
