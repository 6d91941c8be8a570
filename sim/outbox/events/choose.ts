/**
 * A world's `choices` and `step`, generated from the event table: each
 * group's events are its kinds' enabled instances, enumerated in table order
 * by range (`Range` in kind.ts); a step is its kind's `apply`.
 */
import type { ChoiceGroup, StepResult } from '../../core/model.ts';
import type { World, WorldEvent } from '../world.ts';
import type { WorldContext } from './context.ts';
import type { AnyKind, Range } from './kind.ts';
import { EVENT_KINDS, GROUPS, kindOf, type Group } from './table.ts';

/** A run of consecutive kinds of one group enumerated together. */
interface Pass {
  over: 'engines' | 'ids' | 'world';
  kinds: AnyKind[];
}

const passOf = (r: Range): Pass['over'] => (r === 'engine' || r === 'engine-id' ? 'engines' : r === 'id' ? 'ids' : 'world');

/** Each group's passes, computed once from the table. */
const PASSES: ReadonlyMap<string, readonly Pass[]> = new Map(
  GROUPS.map((g) => {
    const passes: Pass[] = [];
    for (const k of EVENT_KINDS.filter((x) => x.group === g.name)) {
      const last = passes[passes.length - 1];
      if (last !== undefined && last.over === passOf(k.range)) last.kinds.push(k);
      else passes.push({ over: passOf(k.range), kinds: [k] });
    }
    return [g.name, passes];
  }),
);

function groupChoices(g: Group, w: World, ctx: WorldContext): ChoiceGroup<WorldEvent> {
  const events: WorldEvent[] = [];
  const weights: number[] = [];
  const add = (k: AnyKind, found: WorldEvent[]) => {
    for (const e of found) {
      events.push(e);
      if (g.weighted) weights.push(k.weight?.(w, ctx) ?? 1);
    }
  };
  for (const pass of PASSES.get(g.name) ?? []) {
    if (pass.over === 'engines') {
      for (const engine of w.engines) {
        for (const id of ctx.ids) for (const k of pass.kinds) if (k.range === 'engine-id') add(k, k.enabled(w, ctx, { engine, id }));
        for (const k of pass.kinds) if (k.range === 'engine') add(k, k.enabled(w, ctx, { engine, id: null }));
      }
    } else if (pass.over === 'ids') {
      for (const id of ctx.ids) for (const k of pass.kinds) add(k, k.enabled(w, ctx, { engine: null, id }));
    } else {
      for (const k of pass.kinds) add(k, k.enabled(w, ctx, { engine: null, id: null }));
    }
  }
  return { group: g.name, weight: g.weight(ctx), events, ...(g.weighted ? { eventWeights: weights } : {}) };
}

/** The events enabled in `w`, by subsystem; once faults stop, only the groups that outlive them. */
export function choicesOf(w: World, ctx: WorldContext): ChoiceGroup<WorldEvent>[] {
  return GROUPS.filter((g) => g.whileHealing || !w.healing).map((g) => groupChoices(g, w, ctx));
}

/** Applies an event by its kind. */
export function stepOf(w: World, e: WorldEvent, ctx: WorldContext): StepResult<World> {
  const tags: string[] = [];
  return { state: kindOf(e).apply(w, e, ctx, tags), tags };
}
