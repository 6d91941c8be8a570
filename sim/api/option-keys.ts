/**
 * The keys each command's options object takes, and the refusal of any
 * other. A caller from JavaScript has no type checker: an option misspelt,
 * or one the functions did not take (`stopOnFirst` once), was ignored
 * without a word and the run answered another question than the one asked
 * (an audit: `check({ dedupeWindow: 2 })` ran without the window). Now it is
 * bad input, one line naming the key and the keys there are.
 */
import type { CheckOptions, CompareOptions, DiffOptions, ExploreOptions, ReplayOptions, WorldSettingOptions, WorldSizeOptions } from './options.ts';
import { UsageError } from '../usage-error.ts';

/** The commands as functions. */
export type CommandName = 'check' | 'explore' | 'replay' | 'compare' | 'diff';

/** Every key of `T`, each once: the compiler refuses a list that misses a key of `T` or names one `T` lacks. */
type KeyList<T> = { readonly [K in keyof Required<T>]: true };

const SETTING_KEYS: KeyList<WorldSettingOptions> = { dedupeWindow: true, lateLanding: true, retention: true, ticks: true, lease: true, jump: true, stableIds: true, sessionClaims: true, oldWritesQueued: true, poison: true, settings: true };

const SIZE_KEYS: KeyList<WorldSizeOptions> = { ids: true, bodies: true, sameBodies: true, longIds: true, idShape: true, bodyShape: true, engines: true, attempts: true, crashes: true, corruptions: true, operator: true, broker: true };

const CHECK_KEYS: KeyList<CheckOptions> = {
  rules: true,
  oldRules: true,
  seeds: true,
  seed: true,
  broker: true,
  ...SETTING_KEYS,
  property: true,
  operator: true,
  attempts: true,
  swarmOnly: true,
  smallWorldsOnly: true,
  symmetry: true,
  stopOnFirst: true,
  upgrade: true,
  out: true,
  workers: true,
  shard: true,
  shardOut: true,
};

const EXPLORE_KEYS: KeyList<ExploreOptions> = {
  rules: true,
  oldRules: true,
  ...SIZE_KEYS,
  ...SETTING_KEYS,
  property: true,
  symmetry: true,
  por: true,
  maxStates: true,
  maxDepth: true,
  maxMemory: true,
  lookAhead: true,
  continue: true,
  out: true,
};

const REPLAY_KEYS: KeyList<ReplayOptions> = { trace: true, rules: true, oldRules: true, under: true };

const COMPARE_KEYS: KeyList<CompareOptions> = { rules: true, seeds: true, maxStates: true, workers: true, out: true };

const DIFF_KEYS: KeyList<DiffOptions> = { old: true, new: true, ...SIZE_KEYS, ...SETTING_KEYS, maxStates: true, out: true };

/** The keys each command's options take, in the order the options' types list them. */
export const OPTION_KEYS: Readonly<Record<CommandName, readonly string[]>> = {
  check: Object.keys(CHECK_KEYS),
  explore: Object.keys(EXPLORE_KEYS),
  replay: Object.keys(REPLAY_KEYS),
  compare: Object.keys(COMPARE_KEYS),
  diff: Object.keys(DIFF_KEYS),
};

/** The command line's flags that have no option, by their camel-cased name, and why. */
export const COMMAND_LINE_ONLY: Readonly<Record<string, string>> = {
  json: 'a function resolves to the object --json prints',
  quiet: 'a function prints nothing',
  verbose: 'a function prints nothing',
  watch: "a test suite reruns on save through its runner's watch mode",
  decisionTimeout: 'a rule file runs in the calling thread, without the watchdog: a decision that never returns blocks it (run a rule file you do not trust through the command line)',
  format: 'compare resolves to the object --format json prints',
};

/** The options a command cannot run without, each with what to give. */
const REQUIRED: Readonly<Record<CommandName, readonly (readonly [string, string])[]>> = {
  check: [],
  explore: [],
  replay: [['trace', "the path of a .trace.jsonl file, e.g. replay({ trace: 'traces/found/<id>.trace.jsonl' })"]],
  compare: [['rules', "the rule sets to compare, one row each, e.g. compare({ rules: ['fail-closed', './rules/mine.ts'] })"]],
  diff: [
    ['old', "the rule set in use, e.g. diff({ old: 'fail-closed', new: './rules/mine.ts' })"],
    ['new', "the proposed rule set, e.g. diff({ old: 'fail-closed', new: './rules/mine.ts' })"],
  ],
};

/**
 * `options` as the command's options, once it is an object of known keys
 * holding the required ones; anything else is refused in one line. No
 * options at all is `{}` for a command that needs none.
 */
export function checkedOptions<T extends object>(command: CommandName, options: unknown): T {
  const required = REQUIRED[command];
  if (options === undefined && required.length === 0) return {} as T;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const [first] = required;
    throw new UsageError(first === undefined ? `${command} takes an options object (or none), not ${describe(options)}` : `${command} takes an options object with ${first[0]}: ${first[1]}`);
  }
  const accepted = OPTION_KEYS[command];
  for (const key of Object.keys(options)) {
    if (accepted.includes(key)) continue;
    const why = COMMAND_LINE_ONLY[key];
    const what = why === undefined ? `unknown option ${JSON.stringify(key)}` : `${key} is the command line's only (${why})`;
    throw new UsageError(`${command}: ${what}; the options are ${accepted.join(', ')}`);
  }
  for (const [key, what] of required) {
    if ((options as Record<string, unknown>)[key] === undefined) throw new UsageError(`${command} needs ${key}: ${what}`);
  }
  for (const [key, value] of Object.entries(options)) {
    // A JavaScript caller's 'false' or 0 for a switch was read as not given: symmetry: 'false' searched with symmetry.
    if (BOOLEAN_KEYS.has(key) && value !== undefined && typeof value !== 'boolean') throw new UsageError(`${command}: ${key} is true or false, not ${JSON.stringify(value)}`);
  }
  const shard: unknown = (options as Record<string, unknown>).shard;
  if (shard !== undefined && !isShard(shard)) throw new UsageError(`${command}: shard is { index, count } (index from 1 to count), not ${JSON.stringify(shard)}: --shard 1/2 is shard: { index: 1, count: 2 }`);
  return options as T;
}

/** The options that are switches: true or false only. */
const BOOLEAN_KEYS: ReadonlySet<string> = new Set<keyof (CheckOptions & ExploreOptions)>(['sameBodies', 'longIds', 'swarmOnly', 'smallWorldsOnly', 'symmetry', 'stopOnFirst', 'por', 'continue']);

/** Whether `v` is a shard as the options type it: an object of two integers. */
function isShard(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const { index, count } = v as { index?: unknown; count?: unknown };
  return Number.isInteger(index) && Number.isInteger(count);
}

/** What a value that is not an options object is, in a few words. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
