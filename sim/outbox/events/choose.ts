/**
 * A world's `choices` and `step`, generated from the event table: each
 * group's events are its kinds' enabled instances, enumerated in table order
 * by range (`Range` in kind.ts); a step is its kind's `apply`.
 */
import type { ChoiceGroup, StepResult } from '../../core/system.ts';
import type { World, WorldEvent } from '../world.ts';
import type { WorldContext } from './context.ts';
import type { AnyKind, Range } from './kind.ts';
import { applyOf, EVENT_KINDS, GROUPS, kindOf, type Group } from './table.ts';

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

/** Adds a kind's instances (and, in a weighted group, their weights). Plain loops: this is every step's hot path. */
function addAll(k: AnyKind, found: readonly WorldEvent[], w: World, ctx: WorldContext, events: WorldEvent[], weights: number[] | null): void {
  for (let i = 0; i < found.length; i++) {
    events.push(found[i]);
    if (weights !== null) weights.push(k.weight !== undefined ? k.weight(w, ctx) : 1);
  }
}

function groupChoices(g: Group, passes: readonly Pass[], w: World, ctx: WorldContext): ChoiceGroup<WorldEvent> {
  const events: WorldEvent[] = [];
  const weights: number[] | null = g.weighted ? [] : null;
  for (const pass of passes) {
    if (pass.over === 'engines') {
      for (const engine of w.engines) {
        for (const id of ctx.ids) for (const k of pass.kinds) if (k.range === 'engine-id') addAll(k, k.enabled(w, ctx, { engine, id }), w, ctx, events, weights);
        for (const k of pass.kinds) if (k.range === 'engine') addAll(k, k.enabled(w, ctx, { engine, id: null }), w, ctx, events, weights);
      }
    } else if (pass.over === 'ids') {
      for (const id of ctx.ids) for (const k of pass.kinds) addAll(k, k.enabled(w, ctx, { engine: null, id }), w, ctx, events, weights);
    } else {
      for (const k of pass.kinds) addAll(k, k.enabled(w, ctx, { engine: null, id: null }), w, ctx, events, weights);
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

/** Applies an event by its kind. */
export function stepOf(w: World, e: WorldEvent, ctx: WorldContext): StepResult<World> {
  const tags: string[] = [];
  return { state: applyOf(kindOf(e))(w, e, ctx, tags), tags };
}
