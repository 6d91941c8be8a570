/**
 * Whether a rule file keeps state between decision calls (a module-level
 * `Set` of the ids it parked, a counter, a cache that changes answers). The
 * contract says a decision answers from its arguments alone (docs/rules.md,
 * 'Contract for every decision'), and the checker relies on it: a search
 * derives a step once and replays it, seeds and worlds run one after
 * another in one module, and a crash or a restart of an engine does not
 * reset a module-level variable as it resets a process in production. A
 * rule set that breaks it gives verdicts about another system, clean ones
 * included, and counterexamples that do not replay.
 *
 * The probe: two fresh copies of the rule file (`freshCopy`) run the same
 * seeds, one in order and one in reverse, each seed after others have run
 * in that copy. A rule set that answers from its arguments runs every seed
 * the same in both; one whose answers depend on what earlier runs left in
 * its module runs some seed differently, and the command stops with one line
 * (exit 2) naming the seed and both runs. A state no probe seed reaches goes
 * unseen: the probe is evidence, not a proof.
 */
import { BOUNDS_DEFAULT, runShard, type CheckPlan, type ShardResult } from './check.ts';
import type { RuleSet } from '../model/rules.ts';
import { freshCopy, type LoadedRules } from './rules-loader.ts';
import { UsageError } from './usage-error.ts';

/**
 * Seeds the probe runs in each copy: the swarm's first sixteen, which
 * between them take every pair of its feature values (covering arrays).
 * Measured on a command on a rule file (`check --seed 3`, 5 alternated
 * rounds against the build before): 32 seeds took it from 0.57-0.61 s to
 * 0.71-0.73 s, 16 to 0.66-0.69 s.
 */
export const STATE_PROBE_SEEDS = 16;

/** Two copies of each rule set a command runs (null: no file, the rule set is not probed and the same value serves both). */
export interface ProbeCopies {
  rules: [RuleSet, RuleSet];
  oldRules: [RuleSet, RuleSet] | null;
}

/** A seed that ran differently in the two copies. */
export interface StateFinding {
  seed: number;
  inOrder: string;
  reversed: string;
}

/** A run in a few words: steps, how it ended, what it violated or how a decision broke. */
function described(r: ShardResult): string {
  const end = Object.keys(r.ends)[0] ?? 'no end';
  const violated = Object.keys(r.first);
  const broke = r.fault === undefined ? '' : `, ${r.fault.decision} broke its contract`;
  return `${r.steps} steps, ended ${end}${violated.length > 0 ? `, violating ${violated.join(', ')}` : ''}${broke}`;
}

/** Each seed's run in one copy, the seeds taken in `order`. */
function runsIn(rules: RuleSet, oldRules: RuleSet | null, order: readonly number[]): Map<number, ShardResult> {
  const out = new Map<number, ShardResult>();
  for (const seed of order) {
    const plan: CheckPlan = { rules, oldRules, seedStart: seed, seeds: 1, broker: null, bounds: BOUNDS_DEFAULT };
    out.set(seed, runShard(plan, seed, seed + 1));
  }
  return out;
}

/** The first seed (lowest) whose run differs between the copies, or null when every seed ran the same. */
export function probeState(copies: ProbeCopies, seeds = STATE_PROBE_SEEDS): StateFinding | null {
  const order = Array.from({ length: seeds }, (_, i) => i + 1);
  const a = runsIn(copies.rules[0], copies.oldRules?.[0] ?? null, order);
  const b = runsIn(copies.rules[1], copies.oldRules?.[1] ?? null, [...order].reverse());
  for (const seed of order) {
    const x = a.get(seed) as ShardResult;
    const y = b.get(seed) as ShardResult;
    if (JSON.stringify(x) !== JSON.stringify(y)) return { seed, inOrder: described(x), reversed: described(y) };
  }
  return null;
}

/**
 * Probes a loaded rule file (nothing for a catalog rule set or a value):
 * throws a {@link UsageError} of one line when a seed ran differently in
 * its two copies.
 */
export async function refuseStatefulRules(spec: string, loaded: LoadedRules): Promise<void> {
  const first = await freshCopy(spec, loaded);
  const second = await freshCopy(spec, loaded);
  if (first === null || second === null) return;
  const found = probeState({ rules: [first, second], oldRules: null });
  if (found === null) return;
  throw new UsageError(
    `rule set ${JSON.stringify(loaded.rules.name)} (${loaded.origin.source}): its decisions do not answer from their arguments alone: seed ${found.seed} ran differently in two fresh copies of the file, each after other seeds had run in it (${found.inOrder}; then ${found.reversed}); ${KEEP_NO_STATE}`,
  );
}

/** What every refusal here asks of the rule file. */
const KEEP_NO_STATE = 'keep no state between calls (a module-level variable outlives the crashes and restarts the checker simulates, and carries over to the next seed and world), and no randomness or clock';

/** Seeds of a check that leave a witness of their run: about this many, spread over its seeds. */
export const WITNESSES = 32;

/** The `witnessEvery` of a check of seeds [from, to): every seed of a short check, about {@link WITNESSES} of a long one. */
export function witnessEvery(from: number, to: number): number {
  return Math.max(1, Math.floor((to - from) / WITNESSES));
}

/**
 * After a check of rule files: its witnessed seeds run again, last first, in
 * a fresh copy of each file, and a seed that runs differently from its run
 * in the check (where earlier seeds, and for a thread other seeds, had run
 * in the same module) is refused as {@link refuseStatefulRules} refuses,
 * naming both runs. It covers what the probe before the check misses: a
 * decision on a path its sixteen seeds seldom take (a 503's classification,
 * say), and state that builds up over hundreds of seeds. Nothing for a
 * check without a rule file or without witnesses.
 */
export async function refuseUnlikeWitnesses(loaded: readonly (readonly [string, LoadedRules | null])[], plan: Omit<CheckPlan, 'rules' | 'oldRules' | 'seedStart' | 'seeds'>, witnesses: Readonly<Record<string, string>> | undefined): Promise<void> {
  const files = loaded.filter(([, l]) => l?.pin !== undefined);
  if (files.length === 0 || witnesses === undefined) return;
  const copies: (RuleSet | null)[] = [];
  for (const [spec, l] of loaded) copies.push(l === null ? null : ((await freshCopy(spec, l)) ?? l.rules));
  const [rules, oldRules] = [copies[0], copies[1] ?? null];
  if (rules === null) return;
  // In reverse: a short check witnesses every seed, and a copy that ran them in the check's order would build up the same state.
  const seeds = Object.keys(witnesses).map(Number).sort((a, b) => b - a);
  for (const seed of seeds) {
    const again = runShard({ ...plan, rules, oldRules, seedStart: seed, seeds: 1, stopOnViolation: false, witnessEvery: 1 }, seed, seed + 1).witnesses?.[seed];
    const was = witnesses[seed];
    if (again === was) continue;
    const read = (w: string | undefined): string => (w === undefined ? 'a decision broke its contract' : (w.split('#')[0] ?? w));
    const named = files.map(([, l]) => `${JSON.stringify(l?.rules.name)} (${l?.origin.source})`).join(' and ');
    throw new UsageError(
      `rule set ${named}: its decisions do not answer from their arguments alone: seed ${seed} ran differently in the check (${read(was)}) and again in a fresh copy of the file (${read(again)})${read(again) === read(was) ? ': as long, ended alike, other faults or actions on the way' : ''}; ${KEEP_NO_STATE}`,
    );
  }
}

/**
 * What a check says when a run did not repeat itself (a violating seed run
 * again to record its trace, or a counterexample run again to write it,
 * came out otherwise: sim/check.ts, sim/outbox/record-trace.ts) and a rule
 * file was among its rule sets: the one line of the refusals above, instead
 * of an internal error. Null for any other error, or without a rule file
 * (then it is the checker's own fault, and reported as one).
 */
export function unrepeatedRun(loaded: readonly (readonly [string, LoadedRules | null])[], err: unknown): UsageError | null {
  const files = loaded.filter(([, l]) => l?.pin !== undefined);
  if (files.length === 0 || !(err instanceof Error)) return null;
  const seed = /seed (\d+) ran differently when run again to record its trace \((\d+) steps against (\d+)\)/.exec(err.message);
  const kept = /the counterexample for (\S+) no longer violates when re-run/.exec(err.message);
  if (seed === null && kept === null) return null;
  const what = seed !== null ? `seed ${seed[1]} ran differently when run again to record its trace (${seed[3]} steps, then ${seed[2]}${seed[2] === seed[3] ? ' ending otherwise' : ''})` : `its counterexample of ${kept?.[1] ?? ''} no longer violated when run again to write its trace`;
  const named = files.map(([, l]) => `${JSON.stringify(l?.rules.name)} (${l?.origin.source})`).join(' and ');
  return new UsageError(`rule set ${named}: its decisions do not answer from their arguments alone: ${what}; ${KEEP_NO_STATE}`);
}
