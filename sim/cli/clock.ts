/**
 * Wall-clock time, for reporting only (seconds in a summary, states per
 * second). Like the chooser, the clock is injected: the process entry point
 * (`bin/outbox-sim.mjs`) supplies it through {@link Io.now}; nothing under
 * `sim/` reads a clock, and nothing a run decides depends on one.
 */
import type { Io } from './io.ts';

/** A started stopwatch. */
export interface Clock {
  io: Io;
  start: number;
}

export function startClock(io: Io): Clock {
  return { io, start: io.now?.() ?? 0 };
}

/** Seconds since the clock started (0 when no clock was injected). */
export function elapsedSeconds(c: Clock): number {
  return c.io.now === undefined ? 0 : c.io.now() - c.start;
}
