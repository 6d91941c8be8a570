/**
 * A packed system for the explorer's tests: a chain of states 0, 1, ...,
 * n - 1, one successor each, with one property that may be violated at one
 * state (explore-packed-bounds.test.ts, explore-states-bound.test.ts).
 */
import type { PackedSystem } from './explore-packed.ts';

/** A chain of `n` states 0, 1, ..., n - 1, with one property violated at `bad` (never when -1). */
export function chain(n: number, bad = -1): PackedSystem<string> {
  return {
    width: 1,
    initial(out) {
      out[0] = 0;
    },
    events: (s) => (s[0] < n - 1 ? ['next'] : []),
    apply(s, _e, out) {
      out[0] = s[0] + 1;
    },
    expand(s, sink) {
      if (s[0] >= n - 1) return;
      sink.out[0] = s[0] + 1;
      sink.take(0);
    },
    always: ['not-bad'],
    check: (s) => (s[0] === bad ? { property: 'not-bad', subject: '', body: '', layer: '', detail: `state ${bad}` } : null),
  };
}
