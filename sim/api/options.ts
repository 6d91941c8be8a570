/**
 * The options objects of the commands as functions (commands.ts): each
 * option is the command's flag of the same name, camel-cased (`--stop-on-first`
 * is `stopOnFirst`, `--no-symmetry` is `symmetry: false`), and takes what
 * the flag takes. The flags that only make sense on a terminal (`--json`,
 * `--quiet`, `--verbose`, `--watch`, `--decision-timeout`, compare's
 * `--format`) have no option: option-keys.ts refuses them by name.
 */
import type { BrokerMode } from '../../model/types.ts';
import type { RuleSet } from '../../model/rules.ts';

/** A rule set: a catalog name (`'fail-closed'`), a path to a rule file (`'./rules/mine.ts'`), or a {@link RuleSet} value. */
export type RulesInput = string | RuleSet;

/**
 * The world settings that event kinds declare (docs/faults.md), each the
 * flag of `check` and `explore` of the same name: `dedupeWindow: 3` is
 * `--dedupe-window 3`. `settings: { dedupeWindow: 3 }` gives them too.
 */
export interface WorldSettingOptions {
  /** `--dedupe-window`: the broker may forget an id this many broker steps after storing it; 0: never. */
  dedupeWindow?: number;
  /** `--late-landing`: a timed-out POST may stay in transit and land later, at most this many at once; 0: off. */
  lateLanding?: number;
  /** `--retention`: a retention sweeper may delete up to this many DELIVERED records; 0: off. */
  retention?: number;
  /** `--ticks`: a logical clock whose horizon is this many ticks while faults last; 0: no clock. */
  ticks?: number;
  /** `--lease`: a claim's lease expires this many ticks after it is taken (needs `ticks`); 0: never. */
  lease?: number;
  /** `--jump`: time may also pass this many ticks at once, a long wait (needs `ticks`); 0: a tick at a time. */
  jump?: number;
  /** `--stable-ids`: 1, a restarted or upgraded engine takes the pid of one that is gone (a fixed relay name); 0: a fresh pid. */
  stableIds?: number;
  /** `--session-claims`: 1, a claim is a lock bound to its holder's session (a row lock): a dead engine's claim reads as free; 0: it stays held by the dead engine. */
  sessionClaims?: number;
  /** `--old-writes-queued`: 1, the older version beside also writes the status QUEUED in its pre-send write (a release that marked attempts in flight by status); 0: as its rules write. */
  oldWritesQueued?: number;
  /** `--poison`: up to this many published bodies may become poison messages (an engine about to send one dies); 0: off. */
  poison?: number;
  /** The same settings by name, as one object (`{ dedupeWindow: 3 }`); a setting given both ways is refused. */
  settings?: Readonly<Record<string, number>>;
}

/** Options of `check`; each is the command's flag of the same name. */
export interface CheckOptions extends WorldSettingOptions {
  /** Default `'fail-closed'`. */
  rules?: RulesInput;
  /** Older engines running beside (version skew). */
  oldRules?: RulesInput;
  /** Number of seeds (default 5000). */
  seeds?: number;
  /** Run this one seed only. */
  seed?: number;
  broker?: BrokerMode;
  property?: 'at-most-once';
  /** The operator's budget of actions for every seed (default: drawn per seed). */
  operator?: number;
  /** The attempts limit of every seed, 1-100 (default: drawn per seed); the small worlds keep their own. */
  attempts?: number;
  /** Run the seeded swarm only, not the small worlds explored first. */
  swarmOnly?: boolean;
  /** Explore the small worlds only, no swarm (no `seeds`, `seed` or `shard` then). */
  smallWorldsOnly?: boolean;
  /** False (`--no-symmetry`): the small worlds store every state, not one per class equal up to renaming engine pids (slower; the same verdict). */
  symmetry?: boolean;
  /** End the run at the first violation found (`--stop-on-first`); the result's `stopped` says where. */
  stopOnFirst?: boolean;
  /** False (`--no-upgrade`): without `oldRules`, leave out the upgrade from the catalog rule set the checked one extends (by default its skewed small worlds run; the result's `upgrade` says which). */
  upgrade?: boolean;
  /** Where counterexample traces are written (default `traces/found`). */
  out?: string;
  /** Worker threads (default: as the command line chooses, one per core, fewer on a loaded machine, one for a rule set given as a value, which runs on one only). */
  workers?: number;
  /** Only shard `index` (1-based) of `count` of the seeds; the shard file is written to `shardOut`. */
  shard?: { index: number; count: number };
  shardOut?: string;
}

/** The sizes of one bounded world (explore, diff); each is the command's flag of the same name. */
export interface WorldSizeOptions {
  ids?: number;
  bodies?: number;
  /** Every id gets the same bodies (`--same-bodies`), as tasks with identical payloads. */
  sameBodies?: boolean;
  /** Ids named alike, as production ids (`--long-ids`): eu-west-1.tenant-42.order-000017, eu-west-1.tenant-43.order-000017 instead of a, b. */
  longIds?: boolean;
  /** The 2 ids a pair that differs only by case, normalisation or a trailing space (`--id-shape`): case, accent, space or prefix (docs/protocol.md, 'Id shapes'). */
  idShape?: string;
  /** Every body its letter and a shape (`--body-shape`): astral, combining, control, large or large:N (docs/protocol.md, 'Body shapes'). */
  bodyShape?: string;
  engines?: number;
  attempts?: number;
  crashes?: number;
  corruptions?: number;
  operator?: number;
  broker?: BrokerMode;
}

/** Options of `explore`. */
export interface ExploreOptions extends WorldSizeOptions, WorldSettingOptions {
  rules?: RulesInput;
  oldRules?: RulesInput;
  property?: 'at-most-once';
  /** False: store every state (`--no-symmetry`); default: one per class of states equal up to renaming engine pids. */
  symmetry?: boolean;
  /** Partial-order reduction (`--por`, docs/explore-reduction.md): the `always` properties only; not with `maxDepth`. */
  por?: boolean;
  maxStates?: number;
  maxDepth?: number;
  /** MiB; default 70% of the machine. */
  maxMemory?: number;
  /** States the lasso search may take ahead of the search for early answers (`--look-ahead`, docs/properties.md); verdicts do not depend on it. */
  lookAhead?: number;
  /** Go on after a violation: every property violated, each with its shortest trace. */
  continue?: boolean;
  out?: string;
}

/** Options of `replay`. */
export interface ReplayOptions {
  /** The .trace.jsonl file. */
  trace: string;
  /** The rule file the trace was recorded with (its content hash must match). */
  rules?: string;
  /** The rule file the trace's older engines ran. */
  oldRules?: string;
  /** Re-run the recorded world under these rules instead of replaying exactly (a trace of a rule set given as a value replays so only). */
  under?: RulesInput;
}

/** Options of `compare`. */
export interface CompareOptions {
  /** The rule sets, one row each. */
  rules: RulesInput[];
  seeds?: number;
  maxStates?: number;
  workers?: number;
  out?: string;
}

/** Options of `diff`. */
export interface DiffOptions extends WorldSizeOptions, WorldSettingOptions {
  /** The rule set in use. */
  old: RulesInput;
  /** The proposed rule set. */
  new: RulesInput;
  maxStates?: number;
  out?: string;
}
