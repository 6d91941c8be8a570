/**
 * Verify mode: every event list, step and verdict of the packed system is
 * also computed the slow way, through the object system it was derived
 * from, and any difference throws (the differential tests run whole
 * searches so).
 */
import { canonicalJson } from '../../core/canonical.ts';
import type { KeptSink, SuccessorSink } from '../../core/explore-packed.ts';
import type { TransitionSystem } from '../../core/system.ts';
import type { World, WorldEvent } from '../world.ts';
import type { PackedOutbox } from './system.ts';

const differ = (what: string, fast: unknown, slow: unknown): never => {
  throw new Error(`packed outbox differs from the object system in ${what}: ${canonicalJson(fast)} against ${canonicalJson(slow)}`);
};

/** The packed system `fast`, checked against `objects` at every call. */
export function verified(fast: PackedOutbox, objects: TransitionSystem<World, WorldEvent>): PackedOutbox {
  const { unpack } = fast;
  const always = objects.properties.filter((q) => q.kind === 'always');
  /** Throws unless `out` is the object system's step of `e` from `s`. */
  const verifyStep = (s: Int32Array, e: WorldEvent, out: Int32Array): void => {
    const slow = objects.key(objects.step(unpack(s), e).state);
    const got = objects.key(unpack(out));
    if (got !== slow) differ(`the step ${JSON.stringify(e)}`, got, slow);
  };
  const system: PackedOutbox = {
    ...fast,
    events(s) {
      const list = fast.events(s);
      const slow = objects.choices(unpack(s)).flatMap((c) => c.events);
      if (canonicalJson(list) !== canonicalJson(slow)) differ('enabled events', list, slow);
      return list;
    },
    expand(s, sink) {
      const list = system.events(s);
      const checked: SuccessorSink = {
        out: sink.out,
        take(i, e) {
          if (e !== undefined && e !== list[i]) differ(`the event of index ${i}`, e, list[i]);
          verifyStep(s, list[i], checked.out);
          const stop = sink.take(i, list[i]);
          checked.out = sink.out;
          return stop;
        },
      };
      fast.expand(s, checked);
    },
    expandKept(s, sink) {
      const list = system.events(s);
      const checked: KeptSink<WorldEvent> = {
        out: sink.out,
        keep: (e) => sink.keep(e),
        take(i, e) {
          if (list[i] !== e) differ(`the event of index ${i}`, e, list[i]);
          verifyStep(s, e, checked.out);
          const stop = sink.take(i, e);
          checked.out = sink.out;
          return stop;
        },
      };
      fast.expandKept?.(s, checked);
    },
    apply(s, e, out) {
      fast.apply(s, e, out);
      verifyStep(s, e, out);
    },
    check(s, p, changed) {
      const v = fast.check(s, p, changed);
      const slow = always[p].check(unpack(s));
      if (canonicalJson(v) !== canonicalJson(slow)) differ(`the verdict of ${fast.always[p]}`, v, slow);
      return v;
    },
  };
  return system;
}
