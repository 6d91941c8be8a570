/**
 * The crash-point matrix, read off the event table: one row per durable
 * write, in the order of the lifecycle's states (from the statechart itself).
 * A crash is filed by the state its engine was in, and each state is where
 * exactly one write is next, so each crash counts once: a crash just after
 * one write is the crash just before the next (after the last dispose, an
 * idle engine is before the next publish). A crash during the POST (the
 * broker has it, the reply is unread) is its own column.
 */
import { lifecycleMachine } from '../../../model/lifecycle.ts';
import { EVENT_KINDS } from './table.ts';

/** The lifecycle's state names, in the statechart's order. */
export const LIFECYCLE_STATE_NAMES: readonly string[] = Object.keys(lifecycleMachine.root.states);

/** One row: a durable write, the crash tag just before it, and the crash tag during it if any. */
export interface CrashPoint {
  write: string;
  /** The state the engine is in when this write is next. */
  at: string;
  before: string;
  during: string | null;
}

/** The rows, in lifecycle order. */
export function crashPoints(): CrashPoint[] {
  const rows = EVENT_KINDS.flatMap((k) => (k.durable ?? []).map((d) => ({ write: d.write, at: d.at })));
  const during = EVENT_KINDS.flatMap((k) => (k.crashDuring ? [k.crashDuring] : []));
  return rows
    .sort((a, b) => LIFECYCLE_STATE_NAMES.indexOf(a.at) - LIFECYCLE_STATE_NAMES.indexOf(b.at))
    .map((r) => ({ ...r, before: `crash@${r.at}`, during: during.find((d) => d.write === r.write)?.tag ?? null }));
}
