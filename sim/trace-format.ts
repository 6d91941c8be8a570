/**
 * The trace format: JSON lines. Line 1 is a header (format version, tool
 * version, rule sets with a content hash of any user rule file, options,
 * seed, the violation); then one line per step: the event label, the choice
 * taken (subsystem and index), the event itself, and the change of state.
 * A short content-addressed id names the file. Writes go to a temporary name
 * and are renamed, so a trace is never half-written.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, sameCanonical } from './core/canonical.ts';
import type { Violation } from './core/system.ts';
import { packageVersion } from './package-version.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { writtenForm } from './trace-strings.ts';

/** The format version this tool writes and reads. */
export const TRACE_FORMAT_VERSION = 1;
export const TRACE_FORMAT_NAME = 'outbox-sim-trace';
/** This tool's version, recorded in every trace and printed by `outbox-sim --version`: package.json's, never a copy of it. */
export const TOOL_VERSION: string = packageVersion();

/**
 * A rule set as recorded: catalog name, or a user file with its content
 * hash. Data only: replay takes a catalog rule set by name and loads a user
 * file only from a path the user passes, after checking this hash.
 */
export interface TraceRules {
  name: string;
  /** `catalog`, or the user file's path relative to the folder the trace was made in. */
  source: string;
  /** sha256 (first 16 hex) of the user file's content; null for the catalog. */
  hash: string | null;
}

/** Line 1 of a trace. */
export interface TraceHeader {
  format: typeof TRACE_FORMAT_NAME;
  version: number;
  tool: string;
  /** Which model the trace is of (`outbox`, `receipts`). */
  model: string;
  rules: TraceRules;
  oldRules: TraceRules | null;
  seed: number;
  /** The world's options (JSON). */
  options: unknown;
  /** The violation the trace ends in, with the step it was seen at; null for a clean run. */
  violation: (Violation & { step: number }) | null;
  /** Steps before shrinking, when the trace was shrunk. */
  stepsBeforeShrink: number | null;
  /** How the trace was made (`check`, `explore`, `diff`, ...). */
  origin: string;
  /** Number of step lines that follow (a file cut at a line boundary is still seen as truncated). */
  stepCount: number;
  /**
   * A trace of the steps before a rule set's decision broke (the command
   * ended with exit 2): which decision, how, and whether the trace reaches
   * it (`decision`: its next step, or the quiet test's look-ahead from its
   * last state, calls it) or ends where the look-ahead began. Absent from
   * every other trace.
   */
  brokenDecision?: BrokenDecisionNote;
}

/**
 * How a trace ends: in its violation, before a broken decision, at a diff's
 * first difference (both unjudged past there), or clean. Every rendering and
 * replay says it from this one reading of the header.
 */
export type TraceEnd = 'violation' | 'broken-decision' | 'diff' | 'clean';

export function traceEnd(h: TraceHeader): TraceEnd {
  if (h.violation !== null) return 'violation';
  if (h.brokenDecision !== undefined) return 'broken-decision';
  return h.origin === 'diff' ? 'diff' : 'clean';
}

/** What broke at the end of a trace of the steps before a broken decision. */
export interface BrokenDecisionNote {
  ruleSet: string;
  decision: string;
  kind: string;
  detail: string;
  reach: 'decision' | 'look-ahead';
}

/** A change of state: top-level fields set (with sub-keys for maps) and removed. */
export interface StateChange {
  [field: string]: unknown;
}

/** One step line. */
export interface TraceStep {
  n: number;
  label: string;
  group: string;
  choice: number;
  phase: 'fault' | 'heal';
  event: unknown;
  tags: readonly string[];
  change: StateChange;
}

/** A whole trace in memory. */
export interface Trace {
  id: string;
  header: TraceHeader;
  steps: TraceStep[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The change from one state to the next: for each top-level field that
 * changed, its new value; maps (plain objects) are diffed one level further
 * as `{ set: {...}, del: [...] }`.
 */
export function stateChange(before: unknown, after: unknown): StateChange {
  const change: StateChange = {};
  if (!isPlainObject(before) || !isPlainObject(after)) return { value: after };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const k of keys) {
    const a = before[k];
    const b = after[k];
    // The same value (a world's step shares every part it leaves alone): no text made of a megabyte's body.
    if (a === b || sameCanonical(a, b)) continue;
    if (isPlainObject(a) && isPlainObject(b)) {
      const set: Record<string, unknown> = {};
      const del: string[] = [];
      for (const sk of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        if (!(sk in b)) del.push(sk);
        else if (!sameCanonical(a[sk], b[sk])) set[sk] = b[sk];
      }
      change[k] = del.length > 0 ? { set, del } : { set };
    } else {
      change[k] = b === undefined ? null : b;
    }
  }
  return change;
}

/**
 * Applies a recorded change to a state (used by renderers, and by a re-run
 * under other rules, to rebuild each state). {@link stateChange} records a
 * top-level field that went away as null; given the trace's `initial` world,
 * a field it does not have (an optional one: the POSTs in transit once the
 * last has landed) recorded as null is taken away again, so that the state
 * rebuilt is the state the world was in (before, the renderers' states
 * held `inTransit: null`, a field the world never had).
 */
export function applyChange(state: Record<string, unknown>, change: StateChange, initial?: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...state };
  for (const [k, v] of Object.entries(change)) {
    const current = next[k];
    if (v === null && initial !== undefined && initial[k] === undefined) {
      delete next[k];
    } else if (isPlainObject(v) && 'set' in v && isPlainObject(current) && isPlainObject(v.set)) {
      const merged: Record<string, unknown> = { ...current, ...v.set };
      const del = Array.isArray(v.del) ? (v.del as string[]) : [];
      for (const d of del) delete merged[d];
      next[k] = merged;
    } else {
      next[k] = v;
    }
  }
  return next;
}

/** Checksum of one line's content: any changed byte in a line is caught and named by line number. */
export function lineSum(content: unknown): string {
  return createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 8);
}

/** A line as written: its long strings in runs (sim/trace-strings.ts), sealed with the checksum of what is written. */
function sealed(content: object): string {
  const written = writtenForm(content) as object;
  return canonicalJson({ ...written, sum: lineSum(written) });
}

/** The lines of a trace, each sealed with its checksum. */
export function traceLines(header: TraceHeader, steps: readonly TraceStep[]): string[] {
  return [sealed(header), ...steps.map(sealed)];
}

/** Content-addressed id: the first 12 hex digits of the sha256 of the trace's lines. */
export function traceId(header: TraceHeader, steps: readonly TraceStep[]): string {
  return createHash('sha256').update(traceLines(header, steps).join('\n')).digest('hex').slice(0, 12);
}

/** Times the folder is made again when it vanished between its making and the write (see {@link writeTrace}). */
const FOLDER_VANISHED_TRIES = 3;

/**
 * Writes a trace under `dir` as `<id>.trace.jsonl`; returns the trace with
 * its id and the path. Another command started on the same new folder may
 * remove it while it is still empty (a command's output check removes the
 * folders it made when it has written nothing yet: cli/output-place.ts), so
 * a folder gone by the time of the write is made again, a few times at most.
 */
export function writeTrace(dir: string, header: TraceHeader, steps: readonly TraceStep[]): { trace: Trace; path: string } {
  const id = traceId(header, steps);
  const path = join(dir, `${id}.trace.jsonl`);
  const text = `${traceLines(header, steps).join('\n')}\n`;
  for (let tries = 1; ; tries++) {
    mkdirSync(dir, { recursive: true });
    try {
      writeFileAtomic(path, text);
      break;
    } catch (err) {
      if (tries >= FOLDER_VANISHED_TRIES || existsSync(dir)) throw err;
    }
  }
  return { trace: { id, header, steps: [...steps] }, path };
}
