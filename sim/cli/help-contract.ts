/**
 * What `--help` says of each command's contract: the default of every flag
 * that falls back to one when not given, and the command's exit codes.
 *
 * The defaults are written into the flags' descriptions, not given to
 * commander as default values: a command tells "not given" from "given the
 * default" (`check --seed` ignores `--seeds`; `--max-depth` unset is no
 * bound), and a default value would make every flag look given. The
 * numbers come from the constants the commands fall back to, so the help
 * cannot drift from them.
 */
import type { Command } from 'commander';
import { SEEDS_DEFAULT } from '../check.ts';
import { LOOK_AHEAD_STATES } from '../core/explore-liveness.ts';
import { EXPLORE_DEFAULTS } from '../outbox/explore-options.ts';
import { COMPARE_STATES_DEFAULT } from './compare-command.ts';
import { DIFF_STATES_DEFAULT } from './diff-command.ts';
import { MAX_STATES_DEFAULT } from './explore-command.ts';
import { EXIT_PARTIAL } from './exit-codes.ts';
import { wrapPieces } from '../wrap-text.ts';

/** The flags that size one bounded world, with the sizes searched when they are not given. */
const WORLD: Readonly<Record<string, string | number>> = {
  '--ids': EXPLORE_DEFAULTS.ids,
  '--bodies': EXPLORE_DEFAULTS.bodiesPerId,
  '--engines': EXPLORE_DEFAULTS.engines,
  '--attempts': EXPLORE_DEFAULTS.attemptsMax,
  '--crashes': EXPLORE_DEFAULTS.crashesMax,
  '--corruptions': EXPLORE_DEFAULTS.corruptionsMax,
  '--operator': EXPLORE_DEFAULTS.operatorActionsMax,
  '--broker': EXPLORE_DEFAULTS.broker,
};

/** Per command, the default of each flag whose description does not already say it. */
export const HELP_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string | number>>>> = {
  check: { '--seeds': SEEDS_DEFAULT },
  explore: { ...WORLD, '--max-states': MAX_STATES_DEFAULT, '--max-depth': 'no bound', '--look-ahead': LOOK_AHEAD_STATES },
  diff: { ...WORLD, '--max-states': DIFF_STATES_DEFAULT },
  compare: { '--seeds': SEEDS_DEFAULT, '--max-states': COMPARE_STATES_DEFAULT, '--workers': 1 },
};

const BAD_INPUT = 'bad input: a bad flag, a missing or unreadable file, or a broken rule file (one that does not load, or a decision that throws, hangs, returns a malformed value, changes a record it is given or keeps state between calls); one line on stderr';
const INTERRUPTED = 'interrupted by Ctrl-C (130) or SIGTERM (143): the partial summary is printed';

/** Per command, its exit codes and what each means. */
export const EXIT_CODES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  rules: [
    ['0', 'the catalog was listed'],
    ['2', 'bad input: an unknown flag'],
  ],
  check: [
    ['0', 'no property violated'],
    ['1', 'a property violated (each counterexample shrunk and written as a trace)'],
    ['2', BAD_INPUT],
    ['130/143', INTERRUPTED],
  ],
  replay: [
    ['0', 'the trace replays identically (with --under: the run no longer violates)'],
    ['1', 'it diverges (with --under: the run still violates)'],
    ['2', BAD_INPUT],
  ],
  explore: [
    ['0', 'no property violated in the whole bounded space (a proof for this world)'],
    ['1', 'a property violated (the shortest trace written)'],
    ['2', BAD_INPUT],
    [String(EXIT_PARTIAL), 'a bound was reached (--max-states, --max-depth or --max-memory), nothing found: not a proof'],
    ['130/143', INTERRUPTED],
  ],
  merge: [
    ['0', 'no property violated in any shard'],
    ['1', 'a property violated'],
    ['2', 'bad input: a missing, corrupt or mismatched shard file'],
  ],
  show: [
    ['0', 'the trace was rendered'],
    ['2', 'bad input: an unreadable or corrupt trace, a bad flag, an --out that cannot be written'],
  ],
  receipts: [
    ['0', 'the conditions and scenarios were run and printed'],
    ['2', 'bad input: an unknown flag'],
  ],
  compare: [
    ['0', 'every rule set holds every property'],
    ['1', 'a property violated by one of the rule sets'],
    ['2', BAD_INPUT],
    [String(EXIT_PARTIAL), 'nothing violated, but an exhaustive search stopped at --max-states: not a proof'],
  ],
  diff: [
    ['0', 'no observable difference in the whole bounded space'],
    ['1', 'the outcomes differ (both traces written)'],
    ['2', BAD_INPUT],
    [String(EXIT_PARTIAL), 'no difference found, but the search stopped at --max-states: not a proof'],
  ],
  statechart: [
    ['0', 'the statechart was printed or written'],
    ['2', 'bad input: an unknown --format, an --out that cannot be written'],
  ],
  recheck: [
    ['0', 'no trace violates under R'],
    ['1', 'a trace violates under R (still, another property than recorded, or one that recorded none)'],
    ['2', BAD_INPUT],
  ],
};

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  return wrapPieces(text.split(' '), width);
}

/** The "Exit codes:" block of a command's help, in 80 columns like commander's. */
export function exitCodesHelp(codes: readonly (readonly [string, string])[]): string {
  const width = Math.max(...codes.map(([c]) => c.length));
  const indent = 2 + width + 2;
  const entry = ([c, what]: readonly [string, string]) =>
    wrap(what, 80 - indent).map((l, i) => `${i === 0 ? `  ${c.padEnd(width)}  ` : ' '.repeat(indent)}${l}`);
  return ['', 'Exit codes:', ...codes.flatMap(entry)].join('\n');
}

/** The exit codes of every command, for the program's own help (each command's help gives its own). */
const ANY_COMMAND: readonly (readonly [string, string])[] = [
  ['0', 'nothing violated, no difference (or a trace replays identically)'],
  ['1', 'a violation or a difference was found'],
  ['2', BAD_INPUT],
  [String(EXIT_PARTIAL), 'explore, diff, compare: a search bound was reached, nothing found: not a proof'],
  ['130/143', 'check, explore: interrupted by Ctrl-C / SIGTERM; the partial summary is printed'],
];

/**
 * Adds each command's defaults and exit codes to its help. A command without
 * exit codes, or a default for a flag a command does not take, is a mistake
 * in this file and throws (the CLI's tests build the program).
 */
export function describeContract(program: Command): void {
  for (const command of program.commands) {
    const name = command.name();
    const codes = EXIT_CODES[name];
    if (codes === undefined) throw new Error(`help-contract: no exit codes for command ${name}`);
    for (const [flag, value] of Object.entries(HELP_DEFAULTS[name] ?? {})) {
      const option = command.options.find((o) => o.long === flag);
      if (option === undefined) throw new Error(`help-contract: ${name} has no flag ${flag}`);
      if (option.defaultValue === undefined && !/\bdefault\b/.test(option.description)) option.description += ` (default: ${value})`;
    }
    command.addHelpText('after', exitCodesHelp(codes));
  }
  program.addHelpText('after', exitCodesHelp(ANY_COMMAND));
}
