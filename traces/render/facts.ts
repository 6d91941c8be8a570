/** What every rendering of a trace says about it: its title line, its violation and how to replay it. */
import type { Trace, TraceRules } from '../../sim/trace-format.ts';
import { rulesFromHere } from './rules-from-here.ts';

/** Options shared by the renderers. */
export interface RenderOptions {
  /** The trace's path as the user gave it, for the replay command. */
  path: string;
}

/** Quotes a path for a POSIX shell when it holds anything but safe characters. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The one command that replays a trace. A trace never loads a rule file by
 * itself, so the files it was recorded with (paths relative to where it was
 * made) are passed with `--rules` and `--old-rules`.
 */
export function replayCommand(path: string, recorded?: { rules: TraceRules; oldRules: TraceRules | null }): string {
  const file = (flag: string, r: TraceRules | null | undefined) => (r != null && r.source !== 'catalog' ? ` ${flag} ${shellQuote(r.source)}` : '');
  return `npx outbox-sim replay ${shellQuote(path)}${file('--rules', recorded?.rules)}${file('--old-rules', recorded?.oldRules)}`;
}

/**
 * The replay command a rendering of the trace read from `path` shows: to be
 * run from the current folder, so its rule files are named from here too.
 */
export function replayFromHere(trace: Trace, options: RenderOptions): string {
  return replayCommand(options.path, rulesFromHere(options.path, trace.header));
}

/** The rule sets a trace ran, as `fresh-cycle` or `new (beside old)`. */
export function rulesOf(trace: Trace): string {
  const { rules, oldRules } = trace.header;
  return oldRules === null ? rules.name : `${rules.name} (beside ${oldRules.name})`;
}

/** One line: id, model, rules, seed and length. */
export function titleLine(trace: Trace): string {
  const h = trace.header;
  const shrunk = h.stepsBeforeShrink !== null && h.stepsBeforeShrink !== trace.steps.length ? ` (shrunk from ${h.stepsBeforeShrink})` : '';
  return `trace ${trace.id}: ${h.model} model, rules ${rulesOf(trace)}, seed ${h.seed}, ${trace.steps.length} steps${shrunk}, made by ${h.origin}`;
}

/**
 * A step's phase in the words of docs/properties.md ('A run: safety, then
 * liveness'): the file's `fault` and `heal` read as "this step is a fault"
 * beside every step of the first phase.
 */
export function phaseWord(phase: string): string {
  return phase === 'fault' ? 'safety' : phase === 'heal' ? 'liveness' : phase;
}

/** One line on the violation the trace ends in, or that it ends clean. */
export function violationLine(trace: Trace): string {
  const v = trace.header.violation;
  if (v === null) return 'no violation: the run ends clean';
  return `violation at step ${v.step}: ${v.property} (subject ${v.subject}, body ${v.body}, layer ${v.layer}): ${v.detail}`;
}
