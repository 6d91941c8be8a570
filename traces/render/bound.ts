/**
 * What `show` renders is bounded: a trace is data from anywhere, and one
 * label of a hundred megabytes must not become a table padded to its width
 * on every row, nor a page that holds it once per step. Every string of a
 * trace (labels, names, values in its states, map keys) is cut to
 * {@link CELL_CHARS_MAX} characters before rendering, saying how much was
 * left out; the page's embedded states have a budget of their own
 * ({@link PAGE_STATES_CHARS_MAX}).
 */
import { UsageError } from '../../sim/usage-error.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { longText } from '../../sim/body-text.ts';
import type { TraceState } from './states.ts';

/** The longest string shown: far longer than anything a run writes (labels, details, bodies). */
export const CELL_CHARS_MAX = 300;
/** The most characters of states (as JSON) a page embeds: about fifty times what the longest run needs. */
export const PAGE_STATES_CHARS_MAX = 32 * 1024 * 1024;

/** `s`, or its first {@link CELL_CHARS_MAX} characters and how many more there were. */
export function clip(s: string): string {
  return s.length <= CELL_CHARS_MAX ? s : `${s.slice(0, CELL_CHARS_MAX)}… (${(s.length - CELL_CHARS_MAX).toLocaleString('en-US')} more characters)`;
}

/**
 * A value of a trace with every string cut: a string past {@link CELL_CHARS_MAX} as its first character,
 * how many follow and its digest (`A+262,144 chars #49cbf6cc`, sim/body-text.ts): a large body
 * (docs/protocol.md, 'Body shapes') is one short cell, and two alike in length are told apart.
 */
function clipValue(v: unknown): unknown {
  if (typeof v === 'string') return v.length <= CELL_CHARS_MAX ? v : longText(v);
  if (Array.isArray(v)) return v.map(clipValue);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [clip(k), clipValue(x)]));
  return v;
}

/** The trace with every string clipped (its id is the original's: it names the file). */
export function clipTrace(trace: Trace): Trace {
  return { id: trace.id, header: clipValue(trace.header) as Trace['header'], steps: clipValue(trace.steps) as Trace['steps'] };
}

/** Throws a one-line {@link UsageError} when the states of a trace are too large to embed in a page. */
export function checkPageBudget(trace: Trace, states: readonly TraceState[]): void {
  let chars = 0;
  for (let i = 0; i < states.length; i++) {
    chars += JSON.stringify(states[i]).length;
    if (chars > PAGE_STATES_CHARS_MAX) {
      throw new UsageError(`trace ${trace.id}: its states come to more than ${PAGE_STATES_CHARS_MAX / (1024 * 1024)} MiB by step ${i}, too large for one page; show it with --format text or md`);
    }
  }
}
