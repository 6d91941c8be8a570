/**
 * The watch cell: what user code each thread is running, and since which
 * call, written where a supervising thread can read it. A decision stuck in
 * an infinite loop cannot be stopped from its own thread, so a supervisor
 * (`cli/supervisor.ts`) polls this cell and terminates the thread when one
 * call, or one rule file's import, outlasts its budget; the cell then names
 * what hung: the decision (or the import), the rule set or file, and where
 * the run was (seed and step, or the search depth).
 *
 * One SharedArrayBuffer holds a slot per thread (the command's thread and
 * each worker thread of `check --workers N`) and a table of the strings the
 * slots name (rule set labels, file paths), written once each. Writes are
 * plain typed-array stores, a few per call: nothing when no cell is attached.
 */

/** Ints per slot: call counter, what runs, its label, position mode, two position numbers, the part of the command it is in. */
const SLOT_INTS = 8;
const SEQ = 0;
const WHAT = 1;
const LABEL = 2;
const MODE = 3;
const A = 4;
const B = 5;
const PLACE = 6;
/** Slots: the command's thread and up to 64 worker threads, with room to spare. */
const SLOTS_MAX = 72;
/** Header ints: the next free slot, the next free byte of the string table. */
const HEADER_INTS = 2;
const STRING_BYTES = 1 << 16;
const INTS = HEADER_INTS + SLOTS_MAX * SLOT_INTS;

/** `what` of a slot: 0 nothing, 1 + the decision's index in `DECISIONS`, or a rule file's import. */
export const WATCH_IDLE = 0;
export const WATCH_IMPORT = 100;

/** Position modes: a seeded run (seed, step) or a breadth-first search (depth). */
export const POSITION_NONE = 0;
export const POSITION_RUN = 1;
export const POSITION_SEARCH = 2;

let ints: Int32Array | null = null;
let bytes: Uint8Array | null = null;
let buffer: SharedArrayBuffer | null = null;
let base = 0;
const labels = new Map<string, number>();

/** A fresh cell for a supervisor to share with the threads it watches. */
export function newWatchBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(INTS * 4 + STRING_BYTES);
}

/** Makes this thread write into `sab`, in a slot of its own (claimed once; attaching the same cell again changes nothing). */
export function attachWatch(sab: SharedArrayBuffer): void {
  if (buffer === sab) return;
  const view = new Int32Array(sab, 0, INTS);
  const slot = Atomics.add(view, 0, 1);
  if (slot >= SLOTS_MAX) return;
  buffer = sab;
  ints = view;
  bytes = new Uint8Array(sab, INTS * 4);
  base = HEADER_INTS + slot * SLOT_INTS;
  labels.clear();
}

/** The cell this thread writes into, to hand to the threads it starts; null when none. */
export function watchBuffer(): SharedArrayBuffer | null {
  return buffer;
}

/** The id of a string in the cell's table (0 when no cell is attached or the table is full). */
export function watchLabel(text: string): number {
  if (ints === null || bytes === null) return 0;
  const known = labels.get(text);
  if (known !== undefined) return known;
  const encoded = new TextEncoder().encode(text.slice(0, 1000));
  const size = 4 + ((encoded.length + 3) & ~3);
  const at = Atomics.add(ints, 1, size);
  if (at + size > STRING_BYTES) return 0;
  bytes.set(encoded, at + 4);
  // The length is written last: a reader that sees it sees the bytes.
  Atomics.store(new Int32Array(bytes.buffer, bytes.byteOffset + at, 1), 0, encoded.length + 1);
  labels.set(text, at + 1);
  return at + 1;
}

/** A call into user code starts: `what` (a decision code or {@link WATCH_IMPORT}) of the rule set or file `label`. */
export function watchEnter(what: number, label: number): void {
  if (ints === null) return;
  ints[base + SEQ]++;
  ints[base + WHAT] = what;
  ints[base + LABEL] = label;
}

/** The call into user code returned (or threw). */
export function watchLeave(): void {
  if (ints !== null) ints[base + WHAT] = WATCH_IDLE;
}

/** Where this thread is: a seeded run's seed and step, or a search's depth. */
export function watchAt(mode: number, a: number, b = 0): void {
  if (ints === null) return;
  ints[base + MODE] = mode;
  ints[base + A] = a;
  ints[base + B] = b;
}

/**
 * The part of the command this thread is in, in words (`small world
 * "default"`, the probe of a rule file before the command's own run), or
 * null for none named; the position is unknown until the next
 * {@link watchAt}, so that a position left by another part is never
 * reported as this one's.
 */
export function watchPlace(text: string | null): void {
  if (ints === null) return;
  ints[base + PLACE] = text === null ? 0 : watchLabel(text);
  ints[base + MODE] = POSITION_NONE;
}

/** Runs `f` in the part of the command named `text` ({@link watchPlace}), and leaves it after, whatever `f` does. */
export function watchingIn<T>(text: string, f: () => T): T {
  watchPlace(text);
  try {
    return f();
  } finally {
    watchPlace(null);
  }
}

/** The step of the seeded run under way (the hot path: one store). */
export function watchStep(step: number): void {
  if (ints !== null) ints[base + B] = step;
}

/** One thread's slot as a supervisor reads it. */
export interface WatchSlot {
  slot: number;
  seq: number;
  what: number;
  label: string | null;
  mode: number;
  a: number;
  b: number;
  /** The part of the command it is in ({@link watchPlace}); null when none was named. */
  place: string | null;
}

function readLabel(sab: SharedArrayBuffer, id: number): string | null {
  if (id <= 0) return null;
  const at = id - 1;
  const length = Atomics.load(new Int32Array(sab, INTS * 4 + at, 1), 0) - 1;
  if (length < 0) return null;
  return new TextDecoder().decode(new Uint8Array(sab, INTS * 4 + at + 4, length).slice());
}

/** The slots in use (read from another thread; values may be a moment old). */
export function readWatch(sab: SharedArrayBuffer): WatchSlot[] {
  const view = new Int32Array(sab, 0, INTS);
  const used = Math.min(Atomics.load(view, 0), SLOTS_MAX);
  const out: WatchSlot[] = [];
  for (let slot = 0; slot < used; slot++) {
    const o = HEADER_INTS + slot * SLOT_INTS;
    out.push({ slot, seq: view[o + SEQ], what: view[o + WHAT], label: readLabel(sab, view[o + LABEL]), mode: view[o + MODE], a: view[o + A], b: view[o + B], place: readLabel(sab, view[o + PLACE]) });
  }
  return out;
}

/** Detaches this thread (tests). */
export function detachWatch(): void {
  ints = null;
  bytes = null;
  buffer = null;
  labels.clear();
}
