/**
 * `--watch` (check and explore): the command runs, then again each time the
 * rule file, or a file of the user's it imports, is saved with new content,
 * in the same process until Ctrl-C (130) or SIGTERM (143). A re-run runs on
 * code the JIT has already compiled, on this thread and, for check, on the
 * worker threads kept from the check before: the main job on a rule file
 * took about 3.6 s from a fresh command and a median of 1.7 s from a save
 * (docs/performance.md, 'Watching a rule file').
 *
 * A save during a run makes that run stale: the run looks at the files as
 * it goes (between its units of work, as it looks for Ctrl-C), stops as an
 * interrupt stops it (its summary marked INTERRUPTED, what it found kept),
 * and the next run starts at once, so the answer to the newest save does
 * not wait for the old version's run to end.
 *
 * Each run is the plain command on what the files hold when it starts: the
 * file is loaded anew (its bundle is named by its content, rules-loader.ts),
 * probed for kept state, and its verdict, traces and exit code are those a
 * fresh command gives of that content. A save that does not compile, or a
 * rule set that breaks its contract, prints its one line and the watch goes
 * on to the next save: a half-written file is normal while editing. A
 * decision that hangs still ends the command (its thread cannot be stopped
 * otherwise: supervisor.ts).
 *
 * Files are polled, not watched by the operating system: editors save by
 * writing a new file and renaming it over the old one, which ends an
 * inode's watch. Their content is compared, not their modification time,
 * which some file systems keep to the second: a handful of small files is
 * cheap to read and hash ten times a second. A change counts once the
 * content differs from what the last run started from and has stayed the
 * same for one more poll (an editor's save can take two writes).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { clearStale, interruptExitCode, interruption, requestStale, setInterruptPoll } from '../interrupt.ts';
import { lastInputsOf } from '../rules-bundle.ts';
import { looksLikePath } from '../rules-loader.ts';
import { UsageError } from '../usage-error.ts';
import { terminalText } from '../terminal-text.ts';
import { withKeptPools } from '../workers/kept-pools.ts';
import type { Io } from './io.ts';
import { badInputLine } from './rule-fault.ts';

/** How often the watched files are looked at, in milliseconds. */
export const WATCH_POLL_MS = 100;

/**
 * Runs one watch makes at most. Every version of a rule file loaded stays
 * in the process (a JavaScript module cannot be unloaded): the bound keeps a
 * day of saves from growing it without end, and is reported when reached.
 */
export const WATCH_RUNS_MAX = 1_000;

/** The flags a watch refuses: a shard is one run's part of a whole. */
const ONE_RUN_ONLY: readonly ['shard' | 'shardOut', string][] = [
  ['shard', '--shard'],
  ['shardOut', '--shard-out'],
];

/** The flags of a command that name its rule sets (and, for check, its shard). */
export interface WatchedFlags {
  rules?: string;
  oldRules?: string;
  shard?: string;
  shardOut?: string;
}

/** The rule files a watch follows: the specs of --rules and --old-rules that are paths (a catalog rule set never changes). */
export function watchedSpecs(flags: WatchedFlags): string[] {
  for (const [flag, name] of ONE_RUN_ONLY) {
    if (flags[flag] !== undefined) throw new UsageError(`--watch checks again on every save and cannot be used with ${name} (a shard is one run's part of a whole)`);
  }
  const specs = [flags.rules, flags.oldRules].filter((s): s is string => s !== undefined && looksLikePath(s));
  if (specs.length === 0) throw new UsageError('--watch follows a rule file: give one with --rules (or --old-rules), for example --rules ./my-rules.ts');
  return specs;
}

/** The commands that watch. */
export type WatchingCommand = 'check' | 'explore';

/** One run; the bad input a save can bring (a file that does not compile, a broken decision) as its one line and exit 2, as `main` prints it. */
async function runOnce(command: WatchingCommand, io: Io, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    const line = badInputLine(err, command);
    if (line === null) throw err;
    io.err(line);
    return 2;
  }
}

/**
 * The files to watch now: each rule file and the files of the user's it
 * imports, as the run that just ended bundled them (or, while a file does
 * not compile, its last good bundle: the mistake may be in an import, and
 * its fix must be seen).
 */
function filesOf(specs: readonly string[]): string[] {
  return [...new Set(specs.flatMap((spec) => lastInputsOf(resolve(spec))))].sort();
}

/** A file's content as a hash, or null while it is missing or unreadable (in the middle of an editor's save). */
function contentOf(file: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/**
 * One look at `files` against `before` (what they held as the last run
 * started): a changed file once its new content has stayed the same over
 * one more look (an editor's save can take two writes), else null.
 */
class ChangeLooks {
  private pending: { file: string; content: string } | null = null;

  /** `files` is asked at each look: a run learns its rule file's imports as it loads it. */
  constructor(
    private readonly files: () => readonly string[],
    private readonly before: Map<string, string | null>,
  ) {}

  look(): string | null {
    if (this.pending !== null) {
      if (contentOf(this.pending.file) === this.pending.content) return this.pending.file;
      this.pending = null;
    }
    for (const file of this.files()) {
      const content = contentOf(file);
      // A file first seen now (an import the run found) is compared with what it holds now.
      if (!this.before.has(file)) this.before.set(file, content);
      else if (content !== null && content !== this.before.get(file)) {
        this.pending = { file, content };
        break;
      }
    }
    return null;
  }
}

/**
 * Waits until one of `files` holds content other than `before` that stays
 * the same over one more poll; resolves to that file, or to null when an
 * interrupt came first.
 */
async function nextChange(files: readonly string[], before: Map<string, string | null>, pollMs: number): Promise<string | null> {
  const looks = new ChangeLooks(() => files, before);
  for (;;) {
    if (interruption() !== null) return null;
    await sleep(pollMs);
    if (interruption() !== null) return null;
    const changed = looks.look();
    if (changed !== null) return changed;
  }
}

/**
 * Looks at the rule files `specs` and their imports during a run, from
 * {@link interruption} (which a run calls between its units of work, also
 * while a synchronous search holds this thread), at most once per `pollMs`
 * by `now` (the injected clock, in seconds), or at every 64th call without
 * one; and from a timer, for the run's waits on other threads. A change
 * makes the run stale (`requestStale`). The function returned stops the
 * looking and says which file changed (null if none).
 */
function looksDuringRun(specs: readonly string[], before: Map<string, string | null>, pollMs: number, now: (() => number) | undefined): () => string | null {
  const looks = new ChangeLooks(() => filesOf(specs), before);
  let changed: string | null = null;
  let nextAt = 0;
  let calls = 0;
  const poll = (): void => {
    if (changed !== null) return;
    if (now === undefined) {
      if ((++calls & 63) !== 0) return;
    } else {
      const t = now();
      if (t < nextAt) return;
      nextAt = t + pollMs / 1000;
    }
    changed = looks.look();
    if (changed !== null) requestStale();
  };
  setInterruptPoll(poll);
  const timer = setInterval(poll, pollMs);
  return () => {
    setInterruptPoll(null);
    clearInterval(timer);
    return changed;
  };
}

/** How the watch names a file: from the working folder, as the user gave it. */
function shown(file: string): string {
  return terminalText(relative(process.cwd(), file) || file);
}

/**
 * Runs `command` (by `run`, the command without --watch) now and after
 * every change of the rule files `flags` names, until an interrupt: its exit
 * code (130 or 143), or the last run's after {@link WATCH_RUNS_MAX} runs
 * (`limits.runsMax`). Status lines go to stderr, so that stdout holds the
 * runs' reports (one JSON object a line with --json).
 */
export async function rerunOnSave(command: WatchingCommand, flags: WatchedFlags, io: Io, run: () => Promise<number>, limits: WatchLimits = {}): Promise<number> {
  const specs = watchedSpecs(flags);
  // check's worker threads too stay warm from one check to the next.
  return withKeptPools(() => watchLoop(command, specs, io, run, limits.pollMs ?? WATCH_POLL_MS, limits.runsMax ?? WATCH_RUNS_MAX));
}

/** How often a watch looks at its files, and how many runs it makes at most (tests give smaller ones). */
export interface WatchLimits {
  pollMs?: number;
  runsMax?: number;
}

async function watchLoop(command: WatchingCommand, specs: readonly string[], io: Io, run: () => Promise<number>, pollMs: number, runsMax: number): Promise<number> {
  let files = specs.map((s) => resolve(s));
  for (let runs = 1; ; runs++) {
    // What the files hold as the run starts: a save during the run makes it stale, and is the next run's.
    const before = new Map(files.map((f) => [f, contentOf(f)]));
    const stopLooking = looksDuringRun(specs, before, pollMs, io.now);
    let code: number;
    let stale: string | null;
    try {
      code = await runOnce(command, io, run);
    } finally {
      stale = stopLooking();
    }
    const signal = interruption();
    if (signal !== null && signal !== 'save') return code === 130 || code === 143 ? code : interruptExitCode(signal);
    if (stale !== null && runs < runsMax) {
      // The run stopped (or had just ended) on a version already left: the next starts at once.
      clearStale();
      io.err(`${shown(stale)} changed during the run: ${signal === 'save' && code === 130 ? 'it stopped there' : 'its report above is of the version before'}; ${command === 'check' ? 'checking' : 'exploring'} again`);
      files = filesOf(specs);
      continue;
    }
    clearStale();
    if (runs >= runsMax) {
      io.err(`outbox-sim: --watch stopped after ${runsMax} runs, the most one process makes (each version of a rule file stays loaded): run the command again to go on watching`);
      return code;
    }
    const now = filesOf(specs);
    // Files first seen now (imports the run found) are compared with what they hold now.
    for (const f of now) if (!before.has(f)) before.set(f, contentOf(f));
    files = now;
    const imports = files.length - specs.length;
    io.err(`watching ${specs.map((s) => shown(resolve(s))).join(' and ')}${imports > 0 ? ` and ${imports} file${imports === 1 ? '' : 's'} imported` : ''} for changes (exit ${code} above; Ctrl-C to stop)`);
    const changed = await nextChange(files, before, pollMs);
    if (changed === null) return interruptExitCode(interruption() ?? 'SIGINT');
    io.err(`${shown(changed)} changed: ${command === 'check' ? 'checking' : 'exploring'} again`);
  }
}
