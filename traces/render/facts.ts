/** What every rendering of a trace says about it: its title line, its violation and how to replay it. */
import { traceEnd, type Trace, type TraceRules } from '../../sim/trace-format.ts';
import { rulesFromHere } from './rules-from-here.ts';
import { idText } from '../../sim/outbox/id-shape.ts';

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
  // A search's trace (explore, diff, a small world of check) has no seed: its header's 0 read as one.
  const searched = h.origin === 'explore' || h.origin === 'diff' || h.origin === 'compare explore' || h.origin.startsWith('check small world');
  // A rule file's content hash, so that a reader of a pasted trace can tell which version of the file made it.
  const files = [h.rules, h.oldRules].filter((r): r is TraceRules => r !== null && r.source !== 'catalog' && typeof r.hash === 'string').map((r) => `${r.source} content hash ${String(r.hash)}`);
  return `trace ${trace.id}: ${h.model} model, rules ${rulesOf(trace)}${files.length === 0 ? '' : ` (${files.join('; ')})`}${searched ? '' : `, seed ${h.seed}`}, ${trace.steps.length} steps${shrunk}, made by ${h.origin}`;
}

/**
 * A step's phase in the words of docs/properties.md, 'A run: safety, then liveness':
 * the file's `fault` and `heal` read as "this step is a fault" beside every
 * step of the first phase.
 */
export function phaseWord(phase: string): string {
  return phase === 'fault' ? 'safety' : phase === 'heal' ? 'liveness' : phase;
}

/**
 * How a trace that recorded no violation ends, in one sentence: before a
 * broken decision, at a diff's first difference, or clean. Only a run's
 * own end is "clean": the other two stop before their properties are
 * judged, and a reader took the first two for passing runs.
 */
export function cleanEnd(trace: Trace): string {
  const b = trace.header.brokenDecision;
  switch (traceEnd(trace.header)) {
    case 'broken-decision': {
      const where =
        b?.reach === 'decision'
          ? "its next step (or the liveness phase's look-ahead from its last state) calls it"
          : "it broke in the liveness phase's look-ahead past this state (the quiet test, or the search for cycles once faults stopped), in steps this trace could not hold as one run";
      return `No property is violated up to here, and none was judged past it: the run stops before a broken decision. Rule set ${b?.ruleSet}'s ${b?.decision} ${b?.detail}; ${where}, and the command ended with exit 2.`;
    }
    case 'diff':
      return "No property is violated up to here, and none was judged past it: this is one side of a diff (outbox-sim diff), which stops at the first step where the two rule sets' observable outcomes differ.";
    default:
      return 'No violation: the run ends clean.';
  }
}

/** One line on the violation the trace ends in, or how it ends without one. */
export function violationLine(trace: Trace): string {
  const v = trace.header.violation;
  if (v === null) return cleanEnd(trace);
  return `violation at step ${v.step}: ${v.property} (subject ${idText(v.subject)}, body ${v.body}, layer ${v.layer}): ${v.detail}`;
}

/** The heading of a trace that recorded no violation (Markdown, HTML), by how it ends (see {@link cleanEnd}). */
export function cleanHeading(trace: Trace): string {
  const end = traceEnd(trace.header);
  if (end === 'broken-decision') return `a decision of ${rulesOf(trace)} broke after these steps`;
  if (end === 'diff') return `one side of a diff, under ${rulesOf(trace)}`;
  return `no violation under ${rulesOf(trace)}`;
}
