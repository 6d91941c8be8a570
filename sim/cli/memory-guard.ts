/**
 * The explorer's memory bound: a search stops with a partial result, naming
 * the bound, before the process runs out of memory. Packed states live
 * outside V8's heap (typed arrays), so both the heap and the whole process
 * (resident set) are watched.
 */
import { constrainedMemory } from 'node:process';
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

/** Fraction of V8's heap limit at which a search stops. */
const HEAP_FRACTION_MAX = 0.7;
/** Fraction of the machine's (or the container's) memory the process may use by default. */
const MEMORY_FRACTION_DEFAULT = 0.7;

/** The default bound on the process's resident memory, in MiB. */
export function memoryMiBDefault(): number {
  const constrained = constrainedMemory?.() ?? 0;
  const total = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  return Math.floor((MEMORY_FRACTION_DEFAULT * total) / 2 ** 20);
}

/** A stop reason once the heap or the resident set passes its bound, else null. */
export function memoryGuard(maxMiB: number): () => string | null {
  return () => {
    const { used_heap_size, heap_size_limit } = getHeapStatistics();
    if (used_heap_size > HEAP_FRACTION_MAX * heap_size_limit) {
      return `memory (heap ${Math.round(used_heap_size / 2 ** 20)} MiB of ${Math.round(heap_size_limit / 2 ** 20)} MiB)`;
    }
    const rss = process.memoryUsage.rss();
    return rss > maxMiB * 2 ** 20 ? `memory (resident ${Math.round(rss / 2 ** 20)} MiB, bound --max-memory ${maxMiB})` : null;
  };
}
