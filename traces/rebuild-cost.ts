/**
 * What rebuilding a trace's states will cost, counted before any state is
 * built. Steps record changes; `show` and `replay --rules` rebuild every
 * state by applying them in turn ({@link applyChange}), which copies the
 * state's top-level fields and every map a step changes. A small file can
 * therefore ask for a great deal: one step that fills a map with thousands
 * of keys, then thousands of steps that each touch it, copy it thousands of
 * times. The reader refuses a trace whose rebuild would copy more than
 * {@link REBUILD_COPIES_MAX} entries, instead of running out of memory.
 */
import type { TraceStep } from '../sim/trace-format.ts';

/** Entries copied while rebuilding, at most: about a thousand times what the longest run this tool writes needs. */
export const REBUILD_COPIES_MAX = 5_000_000;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The step (1-based) at which rebuilding would pass {@link REBUILD_COPIES_MAX}
 * copied entries, or null. Mirrors applyChange: a `{ set, del }` change of a
 * map merges (copying the map), anything else replaces the field. The initial
 * world's fields are counted as empty maps (it holds a handful of entries).
 */
export function rebuildTooCostly(steps: readonly TraceStep[]): number | null {
  const maps = new Map<string, Set<string>>();
  const fields = new Set<string>();
  let copies = 0;
  for (const step of steps) {
    for (const [field, value] of Object.entries(step.change)) {
      fields.add(field);
      const current = maps.get(field) ?? new Set<string>();
      if (isPlainObject(value) && 'set' in value && isPlainObject(value.set)) {
        copies += current.size + Object.keys(value.set).length;
        for (const k of Object.keys(value.set)) current.add(k);
        if (Array.isArray(value.del)) for (const k of value.del) current.delete(String(k));
        maps.set(field, current);
      } else {
        maps.set(field, new Set(isPlainObject(value) ? Object.keys(value) : []));
      }
    }
    copies += fields.size;
    if (copies > REBUILD_COPIES_MAX) return step.n;
  }
  return null;
}
