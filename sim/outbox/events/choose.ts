/**
 * A world's `choices` and `step`, generated from the event table: each
 * group's events are its kinds' enabled instances, enumerated in table order
 * by range (`Range` in kind.ts); a step is its kind's `apply`.
 */
import type { ChoiceGroup, GroupedChoices, StepResult } from '../../core/system.ts';
import type { World, WorldEvent } from '../world.ts';
import type { WorldContext } from './context.ts';
import type { AnyKind, Range, Subject } from './kind.ts';
import { applyOfEvent, EVENT_KINDS, GROUPS, type Group } from './table.ts';
import { groupReads, ListingMemo } from './listing-memo.ts';
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
  byState: ReadonlyMap<string, KindsOf>;
  /** The bit of each of `kinds`, `perId` and `perEngine` (see {@link KIND_BIT}), in the same order. */
  kindBits: number[];
  perIdBits: number[];
  perEngineBits: number[];
  /** The bits of all its kinds, when each has one (else 0): a world that leaves them all out skips the pass whole. */
  allBits: number;
  /** Its place among all groups' passes, and the fields whether it has an event depends on (listing-memo.ts). */
  index: number;
  reads: number;
}

/** An engines pass's kinds (and their bits, see {@link KIND_BIT}) for an engine in one lifecycle state. */
interface KindsOf {
  perId: AnyKind[];
  perEngine: AnyKind[];
  perIdBits: number[];
  perEngineBits: number[];
}

/**
 * Each kind's bit, by its place in the table, for the set of kinds a world
 * leaves out (`inWorld`; see {@link outOfWorld}); 0 (never left out) beyond
 * 31 kinds.
 */
const KIND_BIT: ReadonlyMap<AnyKind, number> = new Map(EVENT_KINDS.map((k, i) => [k, i < 31 ? 1 << i : 0]));
const bitsOf = (kinds: readonly AnyKind[]): number[] => kinds.map((k) => KIND_BIT.get(k) ?? 0);

/**
 * The bits of the kinds a world's surroundings leave out (`inWorld` false: a
 * knob off, a setting absent, no budget, no version skew). A random run's
 * listing skips them: asked, each would give what it gives in every world of
 * these surroundings, nothing; so every answer and listing is the one of all
 * kinds, and a third of the calls of a run of the swarm's worlds are spared.
 */
function outOfWorld(ctx: WorldContext): number {
  let out = 0;
  for (const k of EVENT_KINDS) if (k.inWorld !== undefined && !k.inWorld(ctx)) out |= KIND_BIT.get(k) ?? 0;
  return out;
}

/** Whether the world leaves out every kind of `pass` (`skip`: see {@link outOfWorld}): the pass then lists nothing. */
const leftOut = (pass: Pass, skip: number): boolean => pass.allBits !== 0 && (skip & pass.allBits) === pass.allBits;

/** Whether kind `k` can be enabled for an engine in `state` (its `engineStates`; any state when it does not say). */
const mayBeEnabledIn = (k: AnyKind, state: LifecycleState): boolean => k.engineStates === undefined || k.engineStates.includes(state);

/**
 * The kinds of an engine in `state`, among `kinds`; an engine whose state is
 * none of the lifecycle's (no such engine is made) is asked of them all.
 */
function kindsIn(pass: Pass, state: string): KindsOf {
  return pass.byState.get(state) ?? pass;
}

const passOf = (r: Range): Pass['over'] => (r === 'engine' || r === 'engine-id' ? 'engines' : r === 'id' ? 'ids' : 'world');

/** How many passes the groups have in all (each pass's `index` is below it). */
let passCount = 0;

/** Each group's passes, computed once from the table. */
const PASSES: ReadonlyMap<string, readonly Pass[]> = new Map(
  GROUPS.map((g) => {
    const passes: Pass[] = [];
    for (const k of EVENT_KINDS.filter((x) => x.group === g.name)) {
      const last = passes[passes.length - 1];
      if (last !== undefined && last.over === passOf(k.range)) last.kinds.push(k);
      else passes.push({ over: passOf(k.range), kinds: [k], perId: [], perEngine: [], byState: new Map(), kindBits: [], perIdBits: [], perEngineBits: [], allBits: 0, index: 0, reads: 0 });
    }
    for (const pass of passes) {
      pass.perId = pass.kinds.filter((k) => k.range === 'engine-id');
      pass.perEngine = pass.kinds.filter((k) => k.range === 'engine');
      pass.kindBits = bitsOf(pass.kinds);
      pass.perIdBits = bitsOf(pass.perId);
      pass.perEngineBits = bitsOf(pass.perEngine);
      pass.allBits = pass.kindBits.includes(0) ? 0 : pass.kindBits.reduce((a, b) => a | b, 0);
      pass.index = passCount++;
      pass.reads = groupReads(pass.kinds, pass.over === 'engines');
      pass.byState = new Map(
        LIFECYCLE_STATES.map((state) => {
          const perId = pass.perId.filter((k) => mayBeEnabledIn(k, state));
          const perEngine = pass.perEngine.filter((k) => mayBeEnabledIn(k, state));
          return [state, { perId, perEngine, perIdBits: bitsOf(perId), perEngineBits: bitsOf(perEngine) }];
        }),
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

/** `skip`: the bits of the kinds not asked (see {@link outOfWorld}; 0 asks every kind). */
function groupChoices(g: Group, passes: readonly Pass[], w: World, ctx: WorldContext, skip: number): ChoiceGroup<WorldEvent> {
  const events: WorldEvent[] = [];
  const weights: number[] | null = g.weighted ? [] : null;
  const ids = ctx.ids;
  for (let p = 0; p < passes.length; p++) {
    const pass = passes[p];
    const kinds = pass.kinds;
    const bits = pass.kindBits;
    if (leftOut(pass, skip)) continue;
    // One subject rewritten in place, as in groupHasEvents below.
    const at = CHOICE_AT;
    if (pass.over === 'engines') {
      for (let e = 0; e < w.engines.length; e++) {
        at.engine = w.engines[e];
        const { perId, perEngine, perIdBits, perEngineBits } = kindsIn(pass, at.engine.state);
        if (perId.length > 0) {
          for (let i = 0; i < ids.length; i++) {
            at.id = ids[i];
            for (let k = 0; k < perId.length; k++) if ((skip & perIdBits[k]) === 0) addAll(perId[k], perId[k].enabled(w, ctx, at), w, ctx, events, weights);
          }
        }
        if (perEngine.length > 0) {
          at.id = null;
          for (let k = 0; k < perEngine.length; k++) if ((skip & perEngineBits[k]) === 0) addAll(perEngine[k], perEngine[k].enabled(w, ctx, at), w, ctx, events, weights);
        }
      }
    } else if (pass.over === 'ids') {
      at.engine = null;
      for (let i = 0; i < ids.length; i++) {
        at.id = ids[i];
        for (let k = 0; k < kinds.length; k++) if ((skip & bits[k]) === 0) addAll(kinds[k], kinds[k].enabled(w, ctx, at), w, ctx, events, weights);
      }
    } else {
      at.engine = null;
      at.id = null;
      for (let k = 0; k < kinds.length; k++) if ((skip & bits[k]) === 0) addAll(kinds[k], kinds[k].enabled(w, ctx, at), w, ctx, events, weights);
    }
  }
  return weights === null ? { group: g.name, weight: g.weight(ctx), events } : { group: g.name, weight: g.weight(ctx), events, eventWeights: weights };
}

/** Each group with its passes, its place in group order, and the fields its listing reads (listing-memo.ts). */
const GROUP_PASSES: readonly { group: Group; passes: readonly Pass[]; index: number; reads: number }[] = GROUPS.map((group, index) => {
  const passes = PASSES.get(group.name) ?? [];
  return { group, passes, index, reads: groupReads(passes.flatMap((p) => p.kinds), passes.some((p) => p.over === 'engines')) };
});

/** The events enabled in `w`, by subsystem; once faults stop, only the groups that outlive them. */
export function choicesOf(w: World, ctx: WorldContext): ChoiceGroup<WorldEvent>[] {
  const out: ChoiceGroup<WorldEvent>[] = [];
  for (const { group, passes } of GROUP_PASSES) if (group.whileHealing || !w.healing) out.push(groupChoices(group, passes, w, ctx, 0));
  return out;
}

/** The subject {@link groupHasEvents} asks about (its fields rewritten in place). */
const HAS_AT: Subject = { engine: null, id: null };

/** Whether a pass has an enabled event: {@link groupChoices}'s enumeration of it, stopped at the first event. */
function passHasEvents(pass: Pass, w: World, ctx: WorldContext, skip: number): boolean {
  const ids = ctx.ids;
  const kinds = pass.kinds;
  const bits = pass.kindBits;
  if (leftOut(pass, skip)) return false;
  // One subject, rewritten for each engine and id: this runs for every group at every step of a
  // random run, and `enabled` reads its subject's fields without keeping it.
  const at = HAS_AT;
  if (pass.over === 'engines') {
    for (let e = 0; e < w.engines.length; e++) {
      at.engine = w.engines[e];
      const { perId, perEngine, perIdBits, perEngineBits } = kindsIn(pass, at.engine.state);
      if (perId.length > 0) {
        for (let i = 0; i < ids.length; i++) {
          at.id = ids[i];
          for (let k = 0; k < perId.length; k++) if ((skip & perIdBits[k]) === 0 && perId[k].enabled(w, ctx, at).length > 0) return true;
        }
      }
      at.id = null;
      for (let k = 0; k < perEngine.length; k++) if ((skip & perEngineBits[k]) === 0 && perEngine[k].enabled(w, ctx, at).length > 0) return true;
    }
  } else if (pass.over === 'ids') {
    at.engine = null;
    for (let i = 0; i < ids.length; i++) {
      at.id = ids[i];
      for (let k = 0; k < kinds.length; k++) if ((skip & bits[k]) === 0 && kinds[k].enabled(w, ctx, at).length > 0) return true;
    }
  } else {
    at.engine = null;
    at.id = null;
    for (let k = 0; k < kinds.length; k++) if ((skip & bits[k]) === 0 && kinds[k].enabled(w, ctx, at).length > 0) return true;
  }
  return false;
}

/**
 * Whether a group has an enabled event: whether any of its passes has one.
 * In `memo`, the group's answer is entry `index` and its passes' are each
 * after the groups' (a step that moves an engine changes the answer of the
 * group's pass over engines, not that of its pass over ids).
 */
function groupHasEvents(index: number, passes: readonly Pass[], w: World, ctx: WorldContext, memo: ListingMemo<unknown>, skip: number): boolean {
  const known = memo.hasEvents(index);
  if (known !== -1) return known === 1;
  let has = false;
  for (let p = 0; p < passes.length && !has; p++) {
    const entry = GROUPS.length + passes[p].index;
    const passKnown = memo.hasEvents(entry);
    if (passKnown !== -1) has = passKnown === 1;
    else {
      has = passHasEvents(passes[p], w, ctx, skip);
      memo.setHasEvents(entry, has);
    }
  }
  memo.setHasEvents(index, has);
  return has;
}

/** The groups of {@link choicesOf}: all of them, and those that outlive the faults. */
const ALL_GROUPS = GROUP_PASSES;
const HEALING_GROUPS = GROUP_PASSES.filter((g) => g.group.whileHealing);

/**
 * {@link choicesOf} one group at a time, for a random run, which needs to know
 * which groups have an event but the events of the one group it draws only:
 * group `i` here is `choicesOf(w, ctx)[i]`. A group's answer, and its
 * listing, are kept while the fields it reads stay the same objects
 * (listing-memo.ts): the listing returned may be one returned before, and
 * is not to be changed.
 */
export function lazyChoicesOf(ctx: WorldContext): GroupedChoices<World, WorldEvent> {
  const memo = new ListingMemo<ChoiceGroup<WorldEvent>>(memoReadsIn(ctx));
  // The kinds this world never enables, not asked (the listing is the same without them).
  const skip = outOfWorld(ctx);
  // A group's weight is a function of the world's options and rules only (ctx): asked once per system, not per step.
  const allWeights = ALL_GROUPS.map((g) => g.group.weight(ctx));
  const healingWeights = HEALING_GROUPS.map((g) => g.group.weight(ctx));
  return {
    count: (w) => (w.healing ? HEALING_GROUPS : ALL_GROUPS).length,
    weight: (w, i) => (w.healing ? HEALING_GROUPS : ALL_GROUPS)[i].group.weight(ctx),
    hasEvents: (w, i) => {
      const g = (w.healing ? HEALING_GROUPS : ALL_GROUPS)[i];
      memo.at(w);
      return groupHasEvents(g.index, g.passes, w, ctx, memo, skip);
    },
    drawable: (w, picks, weights) => {
      const healing = w.healing;
      const groups = healing ? HEALING_GROUPS : ALL_GROUPS;
      const groupWeights = healing ? healingWeights : allWeights;
      memo.at(w);
      let n = 0;
      let weightless = false;
      for (let i = 0; i < groups.length; i++) {
        const weight = groupWeights[i];
        // A group without weight is never drawn: whether it has an event is asked last, only when none with weight has one.
        if (!(weight > 0)) {
          weightless = true;
          continue;
        }
        const g = groups[i];
        if (!groupHasEvents(g.index, g.passes, w, ctx, memo, skip)) continue;
        picks[n] = i;
        weights[n] = weight;
        n++;
      }
      if (n > 0 || !weightless) return n > 0 ? n : -1;
      for (let i = 0; i < groups.length; i++) if (!(groupWeights[i] > 0) && groupHasEvents(groups[i].index, groups[i].passes, w, ctx, memo, skip)) return 0;
      return -1;
    },
    choice: (w, i) => {
      const g = (w.healing ? HEALING_GROUPS : ALL_GROUPS)[i];
      memo.at(w);
      const known = memo.listing(g.index);
      if (known !== null) return known;
      const listing = groupChoices(g.group, g.passes, w, ctx, skip);
      memo.setListing(g.index, listing);
      return listing;
    },
  };
}

/** The fields of each entry of a run's {@link ListingMemo}: the groups', then every pass's. */
function memoReads(ctx: WorldContext | null): readonly number[] {
  const passes = GROUP_PASSES.flatMap((g) => g.passes).sort((a, b) => a.index - b.index);
  return [
    ...GROUP_PASSES.map((g) => groupReads(g.passes.flatMap((p) => p.kinds), g.passes.some((p) => p.over === 'engines'), ctx)),
    ...passes.map((p) => groupReads(p.kinds, p.over === 'engines', ctx)),
  ];
}

/** The kinds whose fields depend on the world's surroundings (`readsIn`), and the entries' fields by what those give. */
const READS_IN = EVENT_KINDS.filter((k) => k.readsIn !== undefined);
const MEMO_READS_IN = new Map<string, readonly number[]>();

/** The fields of each entry in a world of these surroundings (computed once per different answer of the `readsIn` kinds). */
function memoReadsIn(ctx: WorldContext): readonly number[] {
  let key = '';
  for (const k of READS_IN) key += `${(k.readsIn?.(ctx) ?? []).join('+')}|`;
  let reads = MEMO_READS_IN.get(key);
  if (reads === undefined) MEMO_READS_IN.set(key, (reads = memoReads(ctx)));
  return reads;
}

/** Applies an event by its kind. */
export function stepOf(w: World, e: WorldEvent, ctx: WorldContext): StepResult<World> {
  const tags: string[] = [];
  return { state: applyOfEvent(e)(w, e, ctx, tags), tags };
}
