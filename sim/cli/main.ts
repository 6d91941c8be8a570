/**
 * The `outbox-sim` command line. Every command returns its exit code; bad
 * input is one line on stderr and exit 2 (`UsageError`, `badInputLine` in rule-fault.ts).
 */
import { Command, CommanderError } from 'commander';
import type { CheckFlags } from './check-command.ts';
import { processIo, type Io } from './io.ts';
import type { ReplayFlags } from './replay-command.ts';
import type { ExploreFlags } from './explore-command.ts';
import type { RecheckFlags } from './recheck-command.ts';
import type { settingFlags } from './world-settings.ts';
import { terminalSafeIo } from '../terminal-text.ts';
import { packageVersion } from '../package-version.ts';
import { repeatedFlagLine } from './repeated-flag.ts';
import { DECISION_TIMEOUT_DEFAULT, decisionTimeoutSeconds } from './supervisor.ts';
import { EXIT_INTERNAL, internalErrorText } from './exit-codes.ts';

/** `outbox-sim/cli` is `main(argv, io)`: the type of its `io` too, for a caller to write one. */
export type { Io } from './io.ts';

/** Every command, in the order the help lists them. */
export const COMMANDS = ['rules', 'check', 'replay', 'explore', 'merge', 'show', 'receipts', 'compare', 'diff', 'recheck', 'statechart'] as const;

/**
 * What defining the commands takes beyond commander, imported only when it
 * is needed (see {@link programParts}): a command's own module, and the
 * simulator it imports, load when that command runs, so that `outbox-sim
 * rules` loads commander and the catalog, not the explorers.
 */
export interface ProgramParts {
  /** The one command argv runs (null: all, for help or an unknown command). */
  only: string | null;
  /** The world-setting flags of check and explore (read off the event table); null when neither is defined. */
  settingFlags: typeof settingFlags | null;
  /** What only help prints: every command's defaults and exit codes (help-contract.ts), explore's properties; null without help. */
  help: { describeContract: (program: Command) => void; exploreHelp: () => string } | null;
}

/** Loads what the program needs to define `only` (null: every command), with or without its help. */
export async function programParts(only: string | null, help: boolean): Promise<ProgramParts> {
  const settings = only === null || only === 'check' || only === 'explore' || only === 'diff' ? (await import('./world-settings.ts')).settingFlags : null;
  if (!help) return { only, settingFlags: settings, help: null };
  const [{ describeContract }, { exploreHelp }] = await Promise.all([import('./help-contract.ts'), import('./explore-command.ts')]);
  return { only, settingFlags: settings, help: { describeContract, exploreHelp } };
}

/** The parts `argv` needs: its command alone, unless it asks for help (or names no command: commander's error lists none). */
export function partsFor(argv: readonly string[]): Promise<ProgramParts> {
  const help = argv[0] === 'help' || argv.some((a) => a === '--help' || a === '-h');
  const only = !help && (COMMANDS as readonly string[]).includes(argv[0]) ? argv[0] : null;
  return programParts(only, help);
}

/** The flags that size one bounded world (explore, diff). */
function worldSizeOptions(command: Command): Command {
  return command
    .option('--ids <n>', 'outbox ids (1-2)')
    .option('--bodies <n>', 'bodies per id (1-3)')
    .option('--same-bodies', 'every id gets the same bodies (A, B for a and for b), as tasks with identical payloads')
    .option('--long-ids', 'ids named alike, as production ids (eu-west-1.tenant-42.order-000017, eu-west-1.tenant-43.order-000017) instead of a, b')
    // Written out, as --body-shape's.
    .option('--id-shape <shape>', 'the 2 ids a pair a store may fold into one: case (Order-17, order-17), accent (cafe-17 in NFD and NFC) or space (order-17 and a trailing space) (docs/protocol.md, Id shapes)')
    // Written out: main loads for every command, and the shapes' module is the simulator's (start-up.test.ts).
    .option('--body-shape <shape>', 'every body its letter and a shape: astral (outside the BMP), combining (not NFC), control (quote, backslash, newline, NUL, trailing space), large (1,048,577 characters) or large:N (docs/protocol.md, Body shapes)')
    .option('--engines <n>', 'engine processes')
    .option('--attempts <n>', 'attempts limit')
    .option('--crashes <n>', 'engine crashes allowed')
    .option('--corruptions <n>', 'record/claim corruptions, schema and legacy rewrites allowed')
    .option('--operator <n>', 'operator actions allowed')
    .option('--broker <mode>', 'id-ok, id-409, key, none or log');
}

/**
 * The command tree, built apart from running it so that a test can read
 * every command's flags; `exitCode()` is the code the action that ran set.
 * Defines the commands `parts` was loaded for (see {@link programParts}).
 */
export function buildProgram(io: Io, parts: ProgramParts): { program: Command; exitCode: () => number } {
  let code = 0;
  const defines = (name: (typeof COMMANDS)[number]): boolean => parts.only === null || parts.only === name;
  const settingFlags = (cmd: Command, command: 'check' | 'explore'): Command => {
    if (parts.settingFlags === null) throw new Error(`main: ${command} defined without its setting flags`);
    return parts.settingFlags(cmd, command);
  };
  const program = new Command()
    .name('outbox-sim')
    .description('Deterministic simulator and model checker for at-least-once delivery through a durable outbox.')
    .version(packageVersion(), '--version', 'print the version (package.json\'s) and exit')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: () => undefined })
    .showSuggestionAfterError(false);

  if (defines('rules')) program
    .command('rules')
    .description('list the catalog of rule sets')
    .option('--json', 'print an array of { name, summary }')
    .action(async (opts: { json?: boolean }) => {
      code = (await import('./rules-command.ts')).rulesCommand(opts.json === true, io);
    });

  if (defines('check')) settingFlags(program
    .command('check')
    .description('run seeded worlds full of faults against a rule set (the main job)')
    .option('--rules <name|path>', 'rule set to check (catalog name or .ts file)', 'fail-closed')
    .option('--old-rules <name|path>', 'an older rule set whose engines run beside (version skew, rolling upgrade)')
    .option('--seeds <n>', 'number of seeds to run')
    .option('--seed <s>', 'run this one seed only')
    .option('--broker <mode>', 'broker dedupe mode for every seed: id-ok, id-409, key, none, log (log: keeps every accepted POST; default: drawn per seed from the first four)')
    .option('--property <name>', 'also check an opt-in property: at-most-once (a consumer that is not idempotent; use with --broker log)'), 'check')
    .option('--operator <n>', 'the operator\'s budget of actions for every seed (default: drawn per seed, 0-3, or 8-12 in one seed in eight)')
    .option('--attempts <n>', 'the attempts limit of every seed, 1-100, as production runs (default: drawn per seed, 1-5, or 6-32 in one seed in eight); the small worlds keep their own')
    .option('--swarm-only', 'run the seeded swarm only, not the small worlds explored first')
    .option('--small-worlds-only', 'explore the small worlds only, no swarm')
    .option('--no-symmetry', 'the small worlds store every state, not one per class of states equal up to renaming engine pids (slower; the same verdict)')
    .option('--no-upgrade', 'without --old-rules, leave out the upgrade from the catalog rule set yours extends (by default its skewed small worlds and one seed in four run it: both versions side by side, upgrading mid-run)')
    .option('--out <dir>', 'where counterexample traces are written', 'traces/found')
    .option('--json', 'print one JSON object')
    .option('--verbose', 'print the options of the first seed')
    .option('--quiet', 'no header and no progress bar: only the summary')
    .option('--workers <n>', 'workers, the main thread one of them (default: the idle cores by the load average, for the small worlds or 5,000 seeds and more; else 1); the report is the same for any number')
    .option('--shard <i/n>', 'run only shard I of N of the seeds (for a CI matrix); combine with merge')
    .option('--shard-out <file>', 'where the shard result is written (default traces/shards/...)')
    .option('--stop-on-first', 'end the run at the first violation found (exit 1); the summary covers the seeds run')
    .option('--watch', 'check again each time the rule file, or a file of yours it imports, is saved; Ctrl-C ends it (exit 130)')
    .action(async (opts: CheckFlags) => {
      code = await (await import('./check-command.ts')).checkCommand(opts, io);
    });

  if (defines('replay')) program
    .command('replay')
    .description('re-execute a trace and compare every step (exit 0 identical, 1 diverges); --under R re-runs its world under R')
    .argument('<trace>', 'a .trace.jsonl file')
    .option('--rules <path>', 'the rule file the trace was recorded with (a trace never loads one by itself; its content hash must match the recording)')
    .option('--old-rules <path>', 'the rule file the trace\'s older engines ran, likewise')
    .option('--under <name|path>', 're-run the recorded world under these rules instead: still violates / no longer violates')
    .option('--json', 'print one JSON object')
    .action(async (trace: string, opts: ReplayFlags) => {
      code = await (await import('./replay-command.ts')).replayCommand(trace, opts, io);
    });

  if (defines('explore')) settingFlags(worldSizeOptions(program
    .command('explore'))
    .description('exhaustive breadth-first search of one bounded world (shortest counterexample)')
    .option('--rules <name|path>', 'rule set to check', 'fail-closed')
    .option('--old-rules <name|path>', 'older engines beside the new (version skew)'), 'explore')
    .option('--property <name>', 'also check an opt-in property: at-most-once (a consumer that is not idempotent; use with --broker log)')
    .option('--max-states <n>', 'stop after this many distinct states (partial result)')
    .option('--max-depth <n>', 'search every trace of up to n steps and no longer one (partial result unless nothing goes further)')
    .option('--max-memory <MiB>', 'stop (partial result) before the process uses this much memory; default 70% of the machine')
    .option('--look-ahead <n>', 'states the lasso search may take ahead of the search from its first busy states, for early answers in large worlds (verdicts do not depend on it)')
    .option('--continue', 'go on after a violation: every property violated, each with its shortest trace')
    .option('--quiet', 'no header, no progress bar and no search figures: only how the search ended and what it found')
    .option('--no-symmetry', 'store every state, not one per class of states equal up to renaming engine pids (slower; the same verdict)')
    .option('--por', 'partial-order reduction: expand only an ample set of independent events; the always properties only (eventually not checked), no --max-depth')
    .option('--watch', 'explore again each time the rule file, or a file of yours it imports, is saved; Ctrl-C ends it (exit 130)')
    .addHelpText('after', parts.help?.exploreHelp() ?? '')
    .option('--out <dir>', 'where the counterexample trace is written', 'traces/found')
    .option('--json', 'print one JSON object')
    .action(async (opts: ExploreFlags) => {
      code = await (await import('./explore-command.ts')).exploreCommand(opts, io);
    });

  if (defines('merge')) program
    .command('merge')
    .description('combine the shard files of check --shard I/N into one report')
    .argument('<shards...>', 'shard result files')
    .option('--out <dir>', 'where counterexample traces are written', 'traces/found')
    .option('--json', 'print one JSON object')
    .option('--rules <path>', 'the rule file the shards were run with, when they name one (a shard file never loads one by itself; its content hash must match)')
    .option('--old-rules <path>', 'the older engines\' rule file, likewise')
    .option('--quiet', 'no header line: only the summary')
    .action(async (shards: string[], opts: { json?: boolean; quiet?: boolean; out?: string; rules?: string; oldRules?: string }) => {
      code = await (await import('./merge-command.ts')).mergeCommand(shards, opts, io);
    });

  if (defines('show')) program
    .command('show')
    .description('render a trace: a text table, Markdown for a pull request, or a self-contained HTML explorer')
    .argument('<trace>', 'a .trace.jsonl file')
    .option('--format <format>', 'text, md or html (default: from the --out extension, else text)')
    .option('--out <file>', 'write to FILE (atomically) instead of stdout')
    .action(async (trace: string, opts: { format?: string; out?: string }) => {
      code = await (await import('./show-command.ts')).showCommand(trace, opts, io);
    });

  if (defines('receipts')) program
    .command('receipts')
    .description('the second system: command receipts and dispatch, the controlled conditions C1-C9 and scenarios I0-I7 with counts at every layer')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      code = (await import('./receipts-command.ts')).receiptsCommand(opts.json === true, io);
    });

  if (defines('compare')) program
    .command('compare')
    .description('same seeds and budget for every rule set: a table of rule set by property')
    .argument('<rules...>', 'rule sets (catalog names or .ts files)')
    .option('--format <f>', 'text, md or json', 'text')
    .option('--seeds <n>', 'seeds per rule set')
    .option('--max-states <n>', 'bound of the exhaustive search per rule set')
    .option('--workers <n>', 'worker threads for the seeded part')
    .option('--out <dir>', 'where counterexample traces are written', 'traces/found')
    .action(async (rules: string[], opts: { format?: string; seeds?: string; maxStates?: string; workers?: string; out?: string }) => {
      code = await (await import('./compare-command.ts')).compareCommand(rules, opts, io);
    });

  // The world's settings too (a clock, leases, a dedupe window, retention, late landings): a change to a rule that reads the clock otherwise showed no difference.
  if (defines('diff')) settingFlags(worldSizeOptions(program
    .command('diff')), 'explore')
    .description('the shortest run on which two rule sets give different observable outcomes')
    .argument('<old>', 'the rule set in use')
    .argument('<new>', 'the proposed rule set')
    .option('--max-states <n>', 'bound on paired states searched')
    .option('--out <dir>', 'where both traces are written', 'traces/found')
    .option('--json', 'print one JSON object')
    .action(async (oldRules: string, newRules: string, opts: ExploreFlags) => {
      code = await (await import('./diff-command.ts')).diffCommand(oldRules, newRules, opts, io);
    });

  if (defines('recheck')) program
    .command('recheck')
    .description('re-run every trace of a folder under a rule set: still violates / no longer violates (or another property than recorded)')
    .argument('<dir>', 'a folder of .trace.jsonl files')
    .option('--under <name|path>', 'the rule set to re-run them under')
    .option('--rules <name|path>', 'former name of --under')
    .option('--old-rules <path>', 'the rule file older engines ran in traces recorded with one (content hash must match)')
    .option('--json', 'print one JSON object')
    .action(async (dir: string, opts: RecheckFlags) => {
      code = await (await import('./recheck-command.ts')).recheckCommand(dir, opts, io);
    });

  if (defines('statechart')) program
    .command('statechart')
    .description("export the lifecycle statechart: JSON machine config (Stately's editor imports it) or a Mermaid stateDiagram-v2")
    .option('--format <format>', 'json or mermaid (default: mermaid for an --out ending .mmd or .mermaid, else json)')
    .option('--out <file>', 'write to FILE (atomically) instead of stdout')
    .action(async (opts: { format?: string; out?: string }) => {
      code = (await import('./statechart-command.ts')).statechartCommand(opts, io);
    });

  // Commands that load rule sets take the watchdog's budget (it acts when a rule file is given: see supervisor.ts).
  for (const c of program.commands) {
    if (!['check', 'explore', 'compare', 'diff', 'replay', 'recheck'].includes(c.name())) continue;
    c.option('--decision-timeout <seconds>', `with a rule file: the most one decision call or the file's import may take (default ${DECISION_TIMEOUT_DEFAULT}); longer ends the command, exit 2`);
    c.hook('preAction', (_, action) => void decisionTimeoutSeconds(action.opts<{ decisionTimeout?: string }>().decisionTimeout));
  }

  parts.help?.describeContract(program);
  return { program, exitCode: () => code };
}

/** Runs the CLI on `argv` (without `node` and the script); resolves to the exit code. */
export async function main(argv: readonly string[], rawIo: Io = processIo): Promise<number> {
  // Rule files and traces are user data: no control character of theirs reaches the terminal (terminal-text.ts).
  const io = terminalSafeIo(rawIo);
  if (argv.length === 0) {
    io.err('outbox-sim: give a command, for example `outbox-sim check` (the main job); see outbox-sim --help');
    return 2;
  }
  const { program, exitCode } = buildProgram(io, await partsFor(argv));
  const twice = repeatedFlagLine(program, argv);
  if (twice !== null) {
    io.err(twice);
    return 2;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      io.err(`outbox-sim: ${err.message.replace(/^error: /, '')} (see outbox-sim --help)`);
      return 2;
    }
    // Bad input (a UsageError, a rule set's decision that threw or broke its contract): one line.
    // (Imported here, on the way out: a command that ran a rule set has loaded its modules already.)
    const line = (await import('./rule-fault.ts')).badInputLine(err, argv[0]);
    if (line === null) {
      // Anything else is outbox-sim's own fault: said so, with its stack, under an exit code of its own.
      io.err(internalErrorText(err));
      return EXIT_INTERNAL;
    }
    io.err(line);
    return 2;
  }
  return exitCode();
}
