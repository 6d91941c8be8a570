/**
 * The product of two systems run on the same world with the same choices:
 * an event is taken when both sides have a matching one (the same outside
 * action, by `matchKey`). Exploring the product breadth-first finds the
 * shortest run in which some observation of the two sides differs (`diff`).
 * Generic: it knows neither side's system.
 */
import type { ChoiceGroup, Property, TransitionSystem } from './system.ts';

/** A pair of states. */
export interface Pair<S> {
  left: S;
  right: S;
}

/** A joint event: the left event and the right event it matched. */
export interface JointEvent<E> {
  left: E;
  right: E;
}

/** Builds the product system; `differ` returns a description of the first observable difference, or null. */
export function productSystem<S, E>(
  left: TransitionSystem<S, E>,
  right: TransitionSystem<S, E>,
  matchKey: (e: E) => string,
  differ: (l: S, r: S) => string | null,
): TransitionSystem<Pair<S>, JointEvent<E>> {
  const sameOutcomes: Property<Pair<S>> = {
    name: 'same-outcomes',
    kind: 'always',
    description: 'both rule sets give the same observable outcomes',
    check: (p) => {
      const d = differ(p.left, p.right);
      return d === null ? null : { property: 'same-outcomes', subject: '*', body: '', layer: 'outcomes', detail: d };
    },
  };
  return {
    initial: () => ({ left: left.initial(), right: right.initial() }),
    choices(p) {
      const rightEvents = new Map<string, E>();
      for (const g of right.choices(p.right)) for (const e of g.events) rightEvents.set(matchKey(e), e);
      return left.choices(p.left).map((g): ChoiceGroup<JointEvent<E>> => {
        const events: JointEvent<E>[] = [];
        for (const e of g.events) {
          const r = rightEvents.get(matchKey(e));
          if (r !== undefined) events.push({ left: e, right: r });
        }
        return { group: g.group, weight: g.weight, events };
      });
    },
    step(p, e) {
      const l = left.step(p.left, e.left);
      const r = right.step(p.right, e.right);
      return { state: { left: l.state, right: r.state }, tags: l.tags };
    },
    label: (e) => left.label(e.left),
    key: (p) => `${left.key(p.left)}\u0001${right.key(p.right)}`,
    properties: [sameOutcomes],
  };
}
