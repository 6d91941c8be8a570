/**
 * A world's `choices` and `step`, generated from the event table: each
 * group's events are its kinds' enabled instances, enumerated in table order
 * by range (`Range` in kind.ts); a step is its kind's `apply`.
 */
import type { ChoiceGroup, StepResult } from '../../core/system.ts';
import type { World, WorldEvent } from '../world.ts';
import type { WorldContext } from './context.ts';
import type { AnyKind, Range, Subject } from './kind.ts';
import { applyOf, EVENT_KINDS, GROUPS, kindOf, type Group } from './table.ts';
import { LIFECYCLE_STATES, type LifecycleState } from '../../../model/lifecycle.ts';

/** A run of consecutive kinds of one group enumerated together. */
interface Pass {
  over: 'engines' | 'ids' | 'world';
  kinds: AnyKind[];
  /** Of an `engines` pass, its `engine-id` kinds and its `engine` kinds, each in table order (split once, not per step). */
  perId: AnyKind[];
  perEngine: AnyKind[];
  /**
   * The same, for an engine in each lifecycle state: the kinds that can be
   * enabled for it (`engineStates`), in table order. Leaving out a kind whose
   * `enabled` would give nothing changes no listing, and spares most calls
   * (the broker's answers are asked of posting engines only).
   */
  byState: ReadonlyMap<string, { perId: AnyKind[]; perEngine: AnyKind[] }>;
}

/** Whether kind `k` can be enabled for an engine in `state` (its `engineStates`; any state when it does not say). */
const mayBeEnabledIn = (k: AnyKind, state: LifecycleState): boolean => k.engineStates === undefined || k.engineStates.includes(state);

/**
 * The kinds of an engine in `state`, among `kinds`; an engine whose state is
 * none of the lifecycle's (no such engine is made) is asked of them all.
 */
function kindsIn(pass: Pass, state: string): { perId: AnyKind[]; perEngine: AnyKind[] } {
  return pass.byState.get(state) ?? pass;
}

const passOf = (r: Range): Pass['over'] => (r === 'engine' || r === 'engine-id' ? 'engines' : r === 'id' ? 'ids' : 'world');

/** Each group's passes, computed once from the table. */
const PASSES: ReadonlyMap<string, readonly Pass[]> = new Map(
  GROUPS.map((g) => {
    const passes: Pass[] = [];
    for (const k of EVENT_KINDS.filter((x) => x.group === g.name)) {
      const last = passes[passes.length - 1];
      if (last !== undefined && last.over === passOf(k.range)) last.kinds.push(k);
      else passes.push({ over: passOf(k.range), kinds: [k], perId: [], perEngine: [], byState: new Map() });
    }
    for (const pass of passes) {
      pass.perId = pass.kinds.filter((k) => k.range === 'engine-id');
      pass.perEngine = pass.kinds.filter((k) => k.range === 'engine');
      pass.byState = new Map(
        LIFECYCLE_STATES.map((state) => [state, { perId: pass.perId.filter((k) => mayBeEnabledIn(k, state)), perEngine: pass.perEngine.filter((k) => mayBeEnabledIn(k, state)) }]),
      );
    }
    return [g.name, passes];
  }),
);

/** Adds a kind's instances (and, in a weighted group, their weights). Plain loops: this is every step's hot path. */
function addAll(k: AnyKind, found: readonly WorldEvent[], w: World, ctx: WorldContext, events: WorldEvent[], weights: number[] | null): void {
  if (found.length === 0) return;
  for (let i = 0; i < found.length; i++) {
    events.push(found[i]);
    if (weights !== null) weights.push(k.weight !== undefined ? k.weight(w, ctx) : 1);
  }
}

/** The subject {@link groupChoices} asks about (its fields rewritten in place; `enabled` keeps no subject). */
const CHOICE_AT: Subject = { engine: null, id: null };

function groupChoices(g: Group, passes: readonly Pass[], w: World, ctx: WorldContext): ChoiceGroup<WorldEvent> {
  const events: WorldEvent[] = [];
  const weights: number[] | null = g.weighted ? [] : null;
  const ids = ctx.ids;
  for (let p = 0; p < passes.length; p++) {
    const pass = passes[p];
    const kinds = pass.kinds;
    // One subject rewritten in place, as in groupHasEvents below.
    const at = CHOICE_AT;
    if (pass.over === 'engines') {
      for (let e = 0; e < w.engines.length; e++) {
        at.engine = w.engines[e];
        const { perId, perEngine } = kindsIn(pass, at.engine.state);
        if (perId.length > 0) {
          for (let i = 0; i < ids.length; i++) {
            at.id = ids[i];
            for (let k = 0; k < perId.length; k++) addAll(perId[k], perId[k].enabled(w, ctx, at), w, ctx, events, weights);
          }
        }
        if (perEngine.length > 0) {
          at.id = null;
          for (let k = 0; k < perEngine.length; k++) addAll(perEngine[k], perEngine[k].enabled(w, ctx, at), w, ctx, events, weights);
        }
      }
    } else if (pass.over === 'ids') {
      at.engine = null;
      for (let i = 0; i < ids.length; i++) {
        at.id = ids[i];
        for (let k = 0; k < kinds.length; k++) addAll(kinds[k], kinds[k].enabled(w, ctx, at), w, ctx, events, weights);
      }
    } else {
      at.engine = null;
      at.id = null;
      for (let k = 0; k < kinds.length; k++) addAll(kinds[k], kinds[k].enabled(w, ctx, at), w, ctx, events, weights);
    }
  }
  return weights === null ? { group: g.name, weight: g.weight(ctx), events } : { group: g.name, weight: g.weight(ctx), events, eventWeights: weights };
}

/** Each group with its passes, in group order. */
const GROUP_PASSES: readonly { group: Group; passes: readonly Pass[] }[] = GROUPS.map((group) => ({ group, passes: PASSES.get(group.name) ?? [] }));

/** The events enabled in `w`, by subsystem; once faults stop, only the groups that outlive them. */
export function choicesOf(w: World, ctx: WorldContext): ChoiceGroup<WorldEvent>[] {
  const out: ChoiceGroup<WorldEvent>[] = [];
  for (const { group, passes } of GROUP_PASSES) if (group.whileHealing || !w.healing) out.push(groupChoices(group, passes, w, ctx));
  return out;
}

/** The subject {@link groupHasEvents} asks about (its fields rewritten in place). */
const HAS_AT: Subject = { engine: null, id: null };

/** Whether a group has an enabled event: {@link groupChoices}'s enumeration, stopped at the first event. */
function groupHasEvents(passes: readonly Pass[], w: World, ctx: WorldContext): boolean {
  const ids = ctx.ids;
  for (let p = 0; p < passes.length; p++) {
    const pass = passes[p];
    const kinds = pass.kinds;
    // One subject, rewritten for each engine and id: this runs for every group at every step of a
    // random run, and `enabled` reads its subject's fields without keeping it.
    const at = HAS_AT;
    if (pass.over === 'engines') {
      for (let e = 0; e < w.engines.length; e++) {
        at.engine = w.engines[e];
        const { perId, perEngine } = kindsIn(pass, at.engine.state);
        if (perId.length > 0) {
          for (let i = 0; i < ids.length; i++) {
            at.id = ids[i];
            for (let k = 0; k < perId.length; k++) if (perId[k].enabled(w, ctx, at).length > 0) return true;
          }
        }
        at.id = null;
        for (let k = 0; k < perEngine.length; k++) if (perEngine[k].enabled(w, ctx, at).length > 0) return true;
      }
    } else if (pass.over === 'ids') {
      at.engine = null;
      for (let i = 0; i < ids.length; i++) {
        at.id = ids[i];
        for (let k = 0; k < kinds.length; k++) if (kinds[k].enabled(w, ctx, at).length > 0) return true;
      }
    } else {
      at.engine = null;
      at.id = null;
      for (let k = 0; k < kinds.length; k++) if (kinds[k].enabled(w, ctx, at).length > 0) return true;
    }
  }
  return false;
}

/** The groups of {@link choicesOf}: all of them, and those that outlive the faults. */
const ALL_GROUPS = GROUP_PASSES;
const HEALING_GROUPS = GROUP_PASSES.filter((g) => g.group.whileHealing);

/**
 * {@link choicesOf} one group at a time, for a random run, which needs to know
 * which groups have an event but the events of the one group it draws only:
 * group `i` here is `choicesOf(w, ctx)[i]`.
 */
export const lazyChoices = {
  count: (w: World): number => (w.healing ? HEALING_GROUPS : ALL_GROUPS).length,
  weight: (w: World, i: number, ctx: WorldContext): number => (w.healing ? HEALING_GROUPS : ALL_GROUPS)[i].group.weight(ctx),
  hasEvents: (w: World, i: number, ctx: WorldContext): boolean => groupHasEvents((w.healing ? HEALING_GROUPS : ALL_GROUPS)[i].passes, w, ctx),
  choice: (w: World, i: number, ctx: WorldContext): ChoiceGroup<WorldEvent> => {
    const g = (w.healing ? HEALING_GROUPS : ALL_GROUPS)[i];
    return groupChoices(g.group, g.passes, w, ctx);
  },
};

/** Applies an event by its kind. */
export function stepOf(w: World, e: WorldEvent, ctx: WorldContext): StepResult<World> {
  const tags: string[] = [];
  return { state: applyOf(kindOf(e))(w, e, ctx, tags), tags };
}
