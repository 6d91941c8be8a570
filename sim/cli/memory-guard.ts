/**
 * The explorer's memory bound: a search stops with a partial result, naming
 * the bound, before the process runs out of memory. Packed states live
 * outside V8's heap (typed arrays), so both the heap and the whole process
 * (resident set) are watched.
 */
import { readFileSync } from 'node:fs';
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

/**
 * A stop reason once the heap or the resident set passes its bound, else
 * null. `extraBytes`: memory about to be taken at once (a table that
 * doubles), refused when it would carry the resident set past the bound;
 * polled often enough, and asked before every such growth, the bound holds
 * to within what a few thousand states take. `onResident` is given each
 * reading of the resident set: a caller that tracks it reads it no second
 * time (a reading is a system call: two per poll, every 1,000 states, were
 * 1.5 to 2.5% of a search's CPU profile at 3 engines).
 */
export function memoryGuard(maxMiB: number, onResident?: (bytes: number) => void): (extraBytes?: number) => string | null {
  const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
  return (extraBytes = 0) => {
    const { used_heap_size, heap_size_limit } = getHeapStatistics();
    if (used_heap_size > HEAP_FRACTION_MAX * heap_size_limit) {
      return `memory (heap ${mib(used_heap_size)} MiB of ${mib(heap_size_limit)} MiB)`;
    }
    const rss = process.memoryUsage.rss();
    onResident?.(rss);
    if (rss + extraBytes <= maxMiB * 2 ** 20) return null;
    return extraBytes === 0
      ? `memory (resident ${mib(rss)} MiB, bound --max-memory ${maxMiB})`
      : `memory (resident ${mib(rss)} MiB and ${mib(extraBytes)} MiB more for a table to grow, bound --max-memory ${maxMiB})`;
  };
}

/**
 * The most the process has held resident since it started (Linux: VmHWM of
 * /proc/self/status, the kernel's own high-water mark, so no peak between
 * samples is missed), or null where the system does not say.
 */
export function residentPeakBytes(): number | null {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}
