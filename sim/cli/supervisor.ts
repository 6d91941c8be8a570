/**
 * Running a command that loads a user's rule file under a watchdog. A
 * decision stuck in an infinite loop (or a loop at the top level of the
 * file) never gives its thread back, so nothing in that thread can stop it:
 * the command runs on a worker thread, and this, the process's main thread,
 * watches the cell the guarded decisions and the import write into
 * (`sim/watch.ts`). One call or import that outlasts the budget
 * (`--decision-timeout`) ends the command: the worker is terminated (and the
 * `check --workers N` threads it started with it), one line names the rule
 * set or file, the decision (or the import) and the seed and step, exit 2.
 *
 * The supervisor also relays Ctrl-C and SIGTERM, which only the main thread
 * receives, through the shared interrupt cell (`sim/interrupt.ts`): the command
 * stops as if it had received the signal itself, prints its partial summary
 * and exits with its own code; if it has not ended after a grace period, or
 * a second signal comes, it is terminated (130 or 143). What the command
 * writes reaches the process's stdout and stderr as messages (see
 * {@link CommandThreadMessage}).
 * Polling uses the wall clock: it times user code, it is never part of a run.
 */
import { Worker, type MessagePort } from 'node:worker_threads';
import { bundlesForThread, ruleFilesIn } from '../rules-prebundle.ts';
import { isRuleFileName } from '../rule-file-names.ts';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { UsageError } from '../usage-error.ts';
import { attachInterruptCell, interruptExitCode, newInterruptCell, requestInterrupt, type InterruptSignal } from '../interrupt.ts';
import { findPackage } from '../package-version.ts';
import { newWatchBuffer, POSITION_RUN, readWatch, WATCH_IDLE, type WatchSlot } from '../watch.ts';
import { endedLine, hungLine } from '../watch-lines.ts';
import { EXIT_INTERNAL, internalErrorText } from './exit-codes.ts';

/** Default budget of one decision call or one rule file's import, in seconds. */
export const DECISION_TIMEOUT_DEFAULT = 5;

/** What the command thread is given (structured clone; the buffers are shared). */
export interface CommandThreadData {
  argv: string[];
  watch: SharedArrayBuffer;
  interrupt: Int32Array;
  /** Whether stderr is a terminal, and its width: a worker's streams are pipes, so progress bars need to be told. */
  tty: boolean;
  columns: number;
  /** Where the thread asks for the rule files this thread bundled as it started (rules-prebundle.ts). */
  bundles?: MessagePort;
}

/**
 * What the command thread posts: everything it writes to stdout and stderr,
 * then its exit code. A worker's own streams reach the process only when its
 * event loop turns, which a long synchronous run (or a hung decision) never
 * lets happen: progress bars would freeze and the last lines be lost.
 */
export type CommandThreadMessage = { stdout: string } | { stderr: string } | { code: number };

/** Parses `--decision-timeout` (seconds, fractions allowed). */
export function decisionTimeoutSeconds(value: string | undefined): number {
  if (value === undefined) return DECISION_TIMEOUT_DEFAULT;
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(n > 0 && n <= 86_400)) throw new UsageError(`--decision-timeout must be a number of seconds above 0 and at most 86400 (for example 5 or 0.5), got "${value}"`);
  return n;
}

/** The value of a `--flag v` or `--flag=v` in argv. */
function flagValue(argv: readonly string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === flag) return argv[i + 1];
    if (argv[i].startsWith(`${flag}=`)) return argv[i].slice(flag.length + 1);
  }
  return undefined;
}

/**
 * Whether a command runs supervised: when argv names a rule file (user code,
 * which may never return), and always for explore, whose search is one
 * synchronous loop that hears Ctrl-C or SIGTERM only through the shared
 * interrupt cell the supervisor writes (sim/interrupt.ts).
 */
export function needsSupervisor(argv: readonly string[]): boolean {
  return argv[0] === 'explore' || argv.some(isRuleFileName);
}

/** How a supervised command is run. */
export interface SuperviseOptions {
  /** Budget of one decision call or import, in seconds. */
  budgetSeconds?: number;
  /** How long a relayed signal may take to end the command before it is terminated. */
  graceSeconds?: number;
  pollMs?: number;
  /** The worker's entry (tests give their own). */
  entry?: URL;
  err?: (line: string) => void;
}

/** The worker's entry: the package's bin/command-worker.mjs (it picks the compiled CLI or the sources, and gives the thread its clock). */
const commandWorker = (): URL => new URL('bin/command-worker.mjs', pathToFileURL(join(findPackage(import.meta.url).root, '/')));

/** Runs the CLI on `argv` in a watched worker thread; resolves to the exit code. */
export function supervise(argv: readonly string[], options: SuperviseOptions = {}): Promise<number> {
  const err = options.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  let budget: number;
  try {
    budget = options.budgetSeconds ?? decisionTimeoutSeconds(flagValue(argv, '--decision-timeout'));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`outbox-sim: ${e.message}`);
    return Promise.resolve(2);
  }
  const graceMs = (options.graceSeconds ?? 10) * 1000;
  const watch = newWatchBuffer();
  const interrupt = newInterruptCell();
  attachInterruptCell(interrupt);
  // The rule files are bundled here while the thread starts; the thread asks for them on this port (rules-prebundle.ts).
  const bundles = bundlesForThread(ruleFilesIn(argv)).port;
  const data: CommandThreadData = { argv: [...argv], watch, interrupt, tty: process.stderr.isTTY === true, columns: process.stderr.columns ?? 80, bundles };
  const worker = new Worker(options.entry ?? commandWorker(), { workerData: data, transferList: [bundles] });

  return new Promise<number>((resolve) => {
    let code: number | null = null;
    let ended = false;
    let signal: InterruptSignal | null = null;
    let grace: NodeJS.Timeout | null = null;
    /** Per slot: the call counter last seen in a call, and for how many polls. */
    // Time is counted in polls, not read from a clock: a call seen unchanged at `pollsMax` polls in a row is hung.
    const pollMs = options.pollMs ?? 100;
    const pollsMax = Math.max(1, Math.ceil((budget * 1000) / pollMs));
    const seen = new Map<number, { seq: number; what: number; polls: number }>();

    const finish = (exitCode: number): void => {
      if (ended) return;
      ended = true;
      clearInterval(poll);
      if (grace !== null) clearTimeout(grace);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(exitCode);
    };
    /** The exit code once the supervisor has decided it (a hang, a signal): the worker's own no longer counts. */
    let forced: number | null = null;
    const kill = (exitCode: number): void => {
      forced ??= exitCode;
      void worker.terminate().then(() => finish(forced ?? exitCode));
    };

    /** Polls so far: the supervisor's time (see pollsMax), also for telling a signal sent twice at once from a second Ctrl-C. */
    let polls = 0;
    let signalledAt = 0;
    const poll = setInterval(() => {
      polls++;
      const hung: WatchSlot[] = [];
      for (const slot of readWatch(watch)) {
        if (slot.what === WATCH_IDLE) {
          seen.delete(slot.slot);
          continue;
        }
        const was = seen.get(slot.slot);
        if (was === undefined || was.seq !== slot.seq || was.what !== slot.what) seen.set(slot.slot, { seq: slot.seq, what: slot.what, polls: 0 });
        else if (++was.polls >= pollsMax) hung.push(slot);
      }
      // Once the supervisor has decided (forced), the worker is being terminated: a slow termination (a loaded machine,
      // check --workers N ending its threads) must not report the hang a second time on the next poll.
      if (hung.length === 0 || ended || code !== null || forced !== null) return;
      // Several threads stuck at once (check --workers N): name the lowest seed, as a run on one thread would meet it first.
      hung.sort((a, b) => (a.mode === POSITION_RUN && b.mode === POSITION_RUN ? a.a - b.a : 0));
      err(`outbox-sim: ${hungLine(hung[0], budget)}`);
      kill(2);
    }, pollMs);

    function onSignal(received: NodeJS.Signals): void {
      const s: InterruptSignal = received === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
      if (signal !== null) {
        // One signal delivered twice (`timeout` signals the command and its process group; a shell may too) is one request:
        // taken as a second one, it ended a search with no summary, one run in eight.
        if (polls - signalledAt <= 1) return;
        // A second signal: stop now, and say so (the summary is what the user gave up).
        err(`outbox-sim: a second ${received === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C'}: stopped at once, without the summary`);
        kill(interruptExitCode(signal));
        return;
      }
      signal = s;
      signalledAt = polls;
      requestInterrupt(s);
      grace = setTimeout(() => {
        // Said, so that an exit with no summary is not taken for a crash (a starved machine: the command's thread did not reach its next look in time).
        err(`outbox-sim: ${s === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C'}: the command did not stop within ${graceMs / 1000} s of the signal (its thread had not reached its next look), so it was ended with no summary`);
        kill(interruptExitCode(s));
      }, graceMs);
    }
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);

    worker.on('message', (m: CommandThreadMessage) => {
      if ('stdout' in m) process.stdout.write(m.stdout);
      else if ('stderr' in m) process.stderr.write(m.stderr);
      else if (typeof m.code === 'number') {
        code = m.code;
        // The command is done; a thread that something still keeps alive (a timer, a handle) is not waited for long.
        setTimeout(() => kill(m.code), 2000).unref();
      }
    });
    worker.on('error', (e) => {
      // An internal error of the command (not of the rule file): as the unsupervised CLI, said so with its stack, and its own exit code.
      err(internalErrorText(e));
      code ??= EXIT_INTERNAL;
    });
    // The exit comes after the worker's output has reached the process's streams.
    worker.on('exit', (exitCode) => {
      if (forced === null && code === null) {
        // The thread ended without a result and without an error of its own: user code ended it (see endedLine).
        err(`outbox-sim: ${endedLine(readWatch(watch), exitCode)}`);
        code = 2;
      }
      finish(forced ?? code ?? (exitCode === 0 ? 0 : 1));
    });
  });
}
