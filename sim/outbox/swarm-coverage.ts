/**
 * Pairwise coverage of the swarm's features (issue 21): a seed's options
 * switch features on and off (engines, broker mode, each answer and fault
 * kind, the operator's budget), each drawn independently, so a flaw
 * that needs two rare values together (a crash in the POST with one broker
 * mode, many operator actions with a fault switched off) shows only at seed
 * 20,000 or so. The first seeds therefore take their features from a
 * covering array: rows in which every pair of values of any two features
 * occurs at least once, built greedily and deterministically (AETG style:
 * each row starts from the first pair not yet covered and sets each other
 * feature to the value covering most new pairs). Seed 1 takes row 1 and so
 * on; seeds past the array (and seed 0) keep their random draws. What the
 * row does not name (sizes other than engines, the weights' size, the
 * length of the safety phase) stays drawn from the seed.
 *
 * The features are read back from a seed's options the same way for every
 * seed, so the coverage report (which pairs occurred in the seeds run)
 * counts random seeds too. A kind reads `on` only when the world can take
 * its step (its weight, the setting it follows, a budget left: see
 * `kindEffective`), and a row that switches it on turns on what it needs,
 * each from a stream of its own (`cover:<name>`), so a pair counted is a
 * pair the world could produce.
 */
import { SWARM_BROKER_MODES } from '../../model/broker.ts';
import { lightStream } from '../core/chooser.ts';
import { ANSWER_NAMES, HEALTHY_ANSWER, answerOffered } from './events/broker.ts';
import type { AnyKind, Setting } from './events/kind.ts';
import { EVENT_KINDS, SETTINGS } from './events/table.ts';
import type { FixedOptions, WorldOptions } from './options.ts';

/** One feature: its name and the values it takes. */
export interface Feature {
  name: string;
  values: readonly string[];
  /** The value of this feature in a world's options. */
  read: (o: WorldOptions) => string;
  /** Sets the feature to `value` in options drawn for `seed` (keeping a drawn weight or budget that already agrees). */
  write: (o: WorldOptions, value: string, seed: number) => WorldOptions;
  /**
   * For a feature that switches kinds on (a kind, the operator's budget):
   * its value with none of them (`off`, `0`), and the kinds whose steps show
   * that any other value was exercised in a run, not only drawn.
   */
  shows?: { quiet: string; kinds: readonly string[] };
}

/** Operator budgets a covering row asks for: none, a few (1-3), many (8-12: a history grows past its bound only after several requeues). */
export const OPERATOR_CLASSES = ['0', '1-3', '8+'] as const;

/** The class of an operator budget. */
export function operatorClass(n: number): string {
  return n === 0 ? '0' : n <= 3 ? '1-3' : n >= 8 ? '8+' : '4-7';
}

const ON_OFF = ['on', 'off'] as const;

/** A weight between 1 and 4 for a kind a row switches on, from its own stream (like the swarm's `on` draw). */
function onWeight(seed: number, name: string): number {
  return 1 + Math.floor(lightStream(seed, `cover:${name}`).next() * 4);
}

/** A budget of at least one (1-3) for a row that switches crashes or corruptions on. */
function atLeastOne(seed: number, name: string, drawn: number): number {
  return drawn > 0 ? drawn : 1 + Math.floor(lightStream(seed, `cover:${name}`).next() * 3);
}

/**
 * The kinds a covering row switches on and off: every kind of the event
 * table whose swarm knob is drawn `on` (the broker's answers but the healthy
 * one, the faults), and every fault or operator action that follows a world
 * setting of its own and happens by a draw (a forgetting broker, a retention
 * sweep; not the clock's tick, a normal step, nor a late POST landing, which
 * comes only after a `timeout-in-transit`, a feature of its own). Kinds of
 * trace format 1 first, in its order (answers, then faults: `knob.v1`); a
 * kind added since follows in table order.
 */
function switchedKinds(): AnyKind[] {
  const place = (k: AnyKind): number => {
    const v1 = k.knob?.v1;
    return v1 === undefined ? Infinity : (v1.list === 'answerWeights' ? 0 : 1000) + v1.index;
  };
  const switched = (k: AnyKind): boolean =>
    k.knob !== null && (k.knob.draw === 'on' || (k.knob.draw === 'setting' && k.setting !== undefined && k.tag !== 'normal' && k.bySelf !== true));
  return EVENT_KINDS.filter(switched).sort((x, y) => place(x) - place(y));
}

/**
 * Whether a kind takes a crash from the crash budget (a crash, a crash in
 * the POST), so that it reads `on` only with one left: an answer is one the
 * broker does not offer with an empty budget.
 */
function needsCrash(k: AnyKind): boolean {
  if (k.group === 'fault') return k.processes === 'ends';
  const a = ANSWER_NAMES.find((n) => n === k.name);
  return a !== undefined && !answerOffered({ crashesMax: 0, healAnswer: HEALTHY_ANSWER } as WorldOptions, a, false, 0);
}

/** A budget of a world's options a kind spends: crashes, or corruptions (the damages to the store). */
type Budget = 'crashesMax' | 'corruptionsMax';

/**
 * The budget a kind's steps take from: a crash (also in the POST) takes a
 * crash; every other storage fault that no setting governs (a torn record or
 * claim, a schema rewrite, a field corrupted) takes a corruption. A stall
 * follows the clock's lease instead. Each kind's `enabled` asks for one left,
 * so with the budget at 0 it never happens however heavy its weight.
 */
export function budgetOf(k: AnyKind): Budget | null {
  if (needsCrash(k)) return 'crashesMax';
  if (k.group === 'fault' && k.processes === undefined && k.setting === undefined) return 'corruptionsMax';
  return null;
}

/**
 * Whether a world of these options can take a step of kind `k`: its weight
 * as the kind reads it (which is 0 without the setting it follows: a stall
 * without leases, a POST left in transit without late landing, a field
 * corrupted without a corruption budget), and one left in the budget it
 * spends. A feature reads `on` only then, so a pair is counted only when
 * both its values can happen in the world.
 */
export function kindEffective(k: AnyKind, o: WorldOptions): boolean {
  if (k.knob === null || k.knob.weight(o) <= 0) return false;
  const budget = budgetOf(k);
  return budget === null || o[budget] > 0;
}

/**
 * A value for setting `s` that turns it on, drawn from the seed's stream
 * `cover:<name>`: the setting's own draw, taken until it comes out on, so
 * it is a value the swarm draws anyway (a lease of 1-3 ticks, 1-6 POSTs in
 * transit, 1-6 sweeps, a window of 1-6 broker steps).
 */
function drawOn(seed: number, s: Setting): number {
  const stream = lightStream(seed, `cover:${s.name}`);
  for (let i = 0; i < 64; i++) {
    const v = s.draw(() => stream.next());
    if (v !== s.off) return v;
  }
  return Math.min(s.max, Math.max(s.min, s.off + 1));
}

/** `o` with setting `s` on (and the settings it needs), keeping a value already on and any the user fixed; null when a fixed one is off. */
function withSettingOn(o: WorldOptions, s: Setting, seed: number, fixed: Readonly<Record<string, number>>): WorldOptions | null {
  let out = o;
  if (s.needs !== undefined) {
    const needed = SETTINGS.find((x) => x.name === s.needs?.setting);
    if (needed === undefined) return null;
    const on = withSettingOn(out, needed, seed, fixed);
    if (on === null) return null;
    out = on;
  }
  if ((out.settings?.[s.name] ?? s.off) !== s.off) return out;
  if (fixed[s.name] !== undefined) return null;
  return { ...out, settings: { ...out.settings, [s.name]: drawOn(seed, s) } };
}

/** A kind switched on (it can happen in the world: {@link kindEffective}) or off (it cannot). */
function kindFeature(k: AnyKind, fixedSettings: Readonly<Record<string, number>>): Feature {
  const name = k.name;
  const budget = budgetOf(k);
  const own = k.knob?.draw === 'on';
  return {
    name,
    values: ON_OFF,
    shows: { quiet: 'off', kinds: [name] },
    read: (o) => (kindEffective(k, o) ? 'on' : 'off'),
    write: (o, v, seed) => {
      if (v === 'off') {
        // Its weight 0, or the setting it follows off: never a budget or a setting another kind may need.
        if (own) return { ...o, weights: { ...o.weights, [name]: 0 } };
        const s = k.setting;
        return s === undefined || fixedSettings[s.name] !== undefined ? o : { ...o, settings: { ...o.settings, [s.name]: s.off } };
      }
      let x = o;
      if (own && (x.weights[name] ?? 0) <= 0) x = { ...x, weights: { ...x.weights, [name]: onWeight(seed, name) } };
      if (budget !== null && x[budget] <= 0) x = { ...x, [budget]: atLeastOne(seed, budget === 'crashesMax' ? 'crashes' : 'corruptions', x[budget]) };
      if (k.knob !== null && k.knob.weight(x) <= 0) {
        // The setting it follows (its own first, then any other) turned on at a value the swarm draws.
        const candidates = k.setting === undefined ? SETTINGS : [k.setting, ...SETTINGS.filter((s) => s !== k.setting)];
        for (const s of candidates) {
          const on = withSettingOn(x, s, seed, fixedSettings);
          if (on !== null && k.knob.weight(on) > 0) return on;
        }
      }
      return x;
    },
  };
}

/** Options in which nothing is on: the start of the check that a feature can be set both ways under the user's fixed settings. */
function emptyOptions(fixed: FixedOptions): WorldOptions {
  return {
    engines: 1,
    ids: 1,
    bodiesPerId: 1,
    attemptsMax: 1,
    broker: fixed.broker ?? SWARM_BROKER_MODES[0],
    skew: false,
    crashesMax: 0,
    corruptionsMax: 0,
    operatorActionsMax: 0,
    settings: { ...fixed.settings },
    weights: {},
    faultGroupWeight: 1,
    healAnswer: HEALTHY_ANSWER,
    faultStepsMax: 20,
  };
}

/** Whether a row can set the feature to each of its values, whatever the user fixed (a fixed setting may hold a kind on or off). */
function settable(f: Feature, fixed: FixedOptions): boolean {
  let o = emptyOptions(fixed);
  for (const v of [...f.values, ...f.values]) {
    o = f.write(o, v, 1);
    if (f.read(o) !== v) return false;
  }
  return true;
}

/**
 * The swarm's features for a check: those the user fixed (broker, operator
 * budget, engines) are left out, and so is a kind the user's settings hold
 * on or off (`--dedupe-window 0`: the broker never forgets; `--ticks 0`: no
 * stall). The budgets of crashes and corruptions are no features of their
 * own: a kind that spends one gets it when the row switches it on (a budget
 * with every kind that spends it off is a world without those faults).
 */
export function swarmFeatures(fixed: FixedOptions = {}): Feature[] {
  const features: Feature[] = [];
  if (fixed.engines === undefined) {
    features.push({ name: 'engines', values: ['1', '2', '3'], read: (o) => String(o.engines), write: (o, v) => ({ ...o, engines: Number(v) }) });
  }
  if (fixed.broker === undefined) {
    features.push({ name: 'broker', values: SWARM_BROKER_MODES, read: (o) => o.broker, write: (o, v) => ({ ...o, broker: v as WorldOptions['broker'] }) });
  }
  if (fixed.operatorActionsMax === undefined) {
    features.push({
      name: 'operator',
      values: OPERATOR_CLASSES,
      // The operator's own actions (the sweep is a kind of its own, with its own setting).
      shows: { quiet: '0', kinds: EVENT_KINDS.filter((k) => k.group === 'operator' && k.knob === null).map((k) => k.name) },
      read: (o) => operatorClass(o.operatorActionsMax),
      write: (o, v, seed) => {
        if (operatorClass(o.operatorActionsMax) === v) return o;
        const r = lightStream(seed, 'cover:operator').next();
        return { ...o, operatorActionsMax: v === '0' ? 0 : v === '1-3' ? 1 + Math.floor(r * 3) : 8 + Math.floor(r * 5) };
      },
    });
  }
  const fixedSettings = fixed.settings ?? {};
  for (const k of switchedKinds()) {
    const f = kindFeature(k, fixedSettings);
    if (settable(f, fixed)) features.push(f);
  }
  return features;
}

/** A row of a covering array: a value index per feature. */
export type Row = number[];

/** A small deterministic generator for tie-breaks (no clock and no unseeded randomness: a seed replays exactly); tests walk worlds with it too. */
export function tieBreaker(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/**
 * A covering array of strength 2 over features with `sizes[i]` values
 * each: every pair of values of two features is in some row. Greedy: each
 * row starts from the first uncovered pair, then sets the other features
 * (in a shuffled order) to the value that covers most uncovered pairs
 * with the values already set. A tie goes to the feature's quiet value
 * (`quiet[i]`, a kind off), else to a seeded generator: rows then switch
 * about 6 of the swarm's 18 kinds on rather than 9 (random draws: 10), and a
 * flaw that needs two faults together is less often drowned by the others.
 * Measured over the flawed rule sets of sim/bench/flawed-rules.ts (first
 * violating seed of the swarm alone), rows without the preference left four
 * more of them past seed 256; with it 42 of 44 are found by seed 256, as
 * before the rows' features were made honest.
 *
 * The pairs not yet covered are one flat table of flags, pair (a of feature
 * i, b of feature j), i < j, at `base[i * n + j] + a * sizes[j] + b`: the
 * pairs in order of (i, j), then a, then b, so the first uncovered pair is
 * the first flag still set, found by a cursor that only moves forward. Every
 * `check` builds these rows before its first seeds (on its main thread; its
 * worker threads take them: {@link adoptCoveringRows}); with a set per pair of features (and a tuple
 * per look-up) they cost a cold process 60 to 70 ms of CPU, this table 25 to
 * 45 ms. The rows are the same (covering-array.test.ts holds them to the
 * sets' construction).
 */
export function coveringArray(sizes: readonly number[], seed = 21, quiet: readonly number[] = []): Row[] {
  const n = sizes.length;
  const base = new Int32Array(n * n);
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      base[i * n + j] = pairs;
      pairs += sizes[i] * sizes[j];
    }
  }
  // The features of each pair, to read the first uncovered one back.
  const pairI = new Int32Array(pairs);
  const pairJ = new Int32Array(pairs);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      pairI.fill(i, base[i * n + j], base[i * n + j] + sizes[i] * sizes[j]);
      pairJ.fill(j, base[i * n + j], base[i * n + j] + sizes[i] * sizes[j]);
    }
  }
  const uncovered = new Uint8Array(pairs).fill(1);
  let left = pairs;
  let cursor = 0;
  const rand = tieBreaker(seed);
  const rows: Row[] = [];
  const row = new Int32Array(n);
  const gain = (f: number, v: number): number => {
    let g = 0;
    for (let k = 0; k < f; k++) if (row[k] >= 0) g += uncovered[base[k * n + f] + row[k] * sizes[f] + v];
    for (let k = f + 1; k < n; k++) if (row[k] >= 0) g += uncovered[base[f * n + k] + v * sizes[k] + row[k]];
    return g;
  };
  while (left > 0) {
    row.fill(-1);
    // Start from the first uncovered pair.
    while (uncovered[cursor] === 0) cursor++;
    const first = cursor - base[pairI[cursor] * n + pairJ[cursor]];
    row[pairI[cursor]] = Math.floor(first / sizes[pairJ[cursor]]);
    row[pairJ[cursor]] = first % sizes[pairJ[cursor]];
    const order: number[] = [];
    for (let i = 0; i < n; i++) if (row[i] < 0) order.push(i);
    for (let k = order.length - 1; k > 0; k--) {
      const m = Math.floor(rand() * (k + 1));
      const t = order[k];
      order[k] = order[m];
      order[m] = t;
    }
    for (const f of order) {
      let best = -1;
      let bestGain = -1;
      let bestTie = -1;
      for (let v = 0; v < sizes[f]; v++) {
        const g = gain(f, v);
        // A tie goes to the feature's quiet value (a kind off) if it has one, else to the seeded draw.
        const tie = rand() + (quiet[f] === v ? 1 : 0);
        if (g > bestGain || (g === bestGain && tie > bestTie)) {
          best = v;
          bestGain = g;
          bestTie = tie;
        }
      }
      row[f] = best;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const p = base[i * n + j] + row[i] * sizes[j] + row[j];
        left -= uncovered[p];
        uncovered[p] = 0;
      }
    }
    rows.push(Array.from(row));
  }
  return rows;
}

/**
 * Seeds 1 to this take covering rows: one covering array after another,
 * each built with its own tie-breaks, so every pair occurs again in every
 * block (about 17 seeds) and the blocks differ in the combinations beyond
 * pairs they hold.
 */
export const COVERED_SEEDS = 256;

const arrays = new Map<string, { features: Feature[]; rows: Row[]; block: number }>();

/** The key of a check's fixed options for what is built once per distinct set (the covering rows, the pair layout). */
function fixedKey(fixed: FixedOptions): string {
  return `${fixed.broker ?? ''}|${fixed.operatorActionsMax ?? ''}|${fixed.engines ?? ''}|${JSON.stringify(fixed.settings ?? {})}`;
}

/** The features and covering rows (seeds 1 to {@link COVERED_SEEDS}) for a check's fixed options, built once per distinct fixed set. */
export function coveringRows(fixed: FixedOptions = {}): { features: Feature[]; rows: Row[]; block: number } {
  const key = fixedKey(fixed);
  let a = arrays.get(key);
  if (a === undefined) {
    const features = swarmFeatures(fixed);
    const sizes = features.map((f) => f.values.length);
    const rows: Row[] = [];
    let block = 0;
    for (let k = 0; rows.length < COVERED_SEEDS; k++) {
      const more = coveringArray(sizes, 21 + k, features.map((f) => f.values.indexOf('off')));
      if (k === 0) block = more.length;
      rows.push(...more);
    }
    a = { features, rows: rows.slice(0, COVERED_SEEDS), block };
    arrays.set(key, a);
  }
  return a;
}

/** The covering rows of a check as plain data, to hand to another thread of the same check. */
export interface CoveringRowsData {
  rows: Row[];
  block: number;
}

/**
 * Takes the covering rows of `fixed` that another thread of this check built
 * ({@link coveringRows}, the same code), instead of building them here: they
 * depend on the fixed options only, and a worker thread would build them
 * cold before its first seeds (25 to 45 ms of its CPU; with the sets they
 * were built on before, 60 to 100 ms). Rows of another shape (not one value
 * per feature, or not one row per covered seed) are not taken.
 */
export function adoptCoveringRows(fixed: FixedOptions, data: CoveringRowsData): void {
  const key = fixedKey(fixed);
  if (arrays.has(key)) return;
  const features = swarmFeatures(fixed);
  const fits = data.rows.length === COVERED_SEEDS && data.rows.every((r) => r.length === features.length && r.every((v, i) => Number.isInteger(v) && v >= 0 && v < features[i].values.length));
  if (fits) arrays.set(key, { features, rows: data.rows, block: data.block });
}

/**
 * The options of `seed` with its covering row applied (seeds 1 to the
 * number of rows); other seeds' options unchanged.
 */
export function coverSeed(seed: number, fixed: FixedOptions, drawn: WorldOptions): WorldOptions {
  // Seeds past the rows (all but the first few hundred) skip the look-up of the rows, which builds a key.
  if (!(seed >= 1 && seed <= COVERED_SEEDS)) return drawn;
  const { features, rows } = coveringRows(fixed);
  const row = seed >= 1 && seed <= rows.length ? rows[seed - 1] : undefined;
  if (row === undefined) return drawn;
  // Every feature is written, also one that reads as its row value already: a
  // crash in the POST reads `off` with no crash budget, and a later feature
  // may grant one, so `off` must be a weight of 0, not an empty budget.
  let o = drawn;
  features.forEach((f, i) => {
    o = f.write(o, f.values[row[i]], seed);
  });
  return o;
}

/** Which pairs of feature values occurred in a range of seeds. */
export interface PairCoverage {
  features: number;
  /** Pairs of values of two different features. */
  pairs: number;
  /** Pairs that occurred in some seed. */
  covered: number;
  /** The seed by which every pair had occurred, or null. */
  allBySeed: number | null;
  /** Covered pairs after the first 100, 500 and all seeds of the range. */
  coveredAfter: Record<string, number>;
  /** Up to 20 pairs that never occurred (`feature=value & feature=value`), shortest first. */
  missing: string[];
  /**
   * The same over the pairs the runs exercised (`check`: a value that
   * switches kinds on counts only in a run that took a step of one of them,
   * `Feature.shows`); absent when the runs' steps were not kept.
   */
  exercised?: PairCoverage;
}

/** A kind whose step shows a feature's value exercised: its name and the tag that counts its steps. */
export interface ShownKind {
  name: string;
  /** Its counter tag (events/kind.ts `counter`), which every step of it adds but an answer to a POST its rules fenced out (never sent: events/engine-step.ts). */
  counter: string;
}

/**
 * The pairs of a check's features laid out in one flat table: pair (a of
 * feature i, b of feature j), i < j, at `base[i][j] + a * size(j) + b`.
 * Shards keep such a table of first seeds, so what crosses threads is one
 * number per pair whatever the number of seeds.
 */
export interface PairLayout {
  features: Feature[];
  pairs: number;
  base: number[][];
  /** Per feature: the index of its quiet value and the kinds that show any other exercised; null for a feature that switches nothing on. */
  shows: ({ quiet: number; kinds: ShownKind[] } | null)[];
}

const layouts = new Map<string, PairLayout>();

/** The pair layout of a check's fixed options (built once per distinct fixed set, like the covering rows). */
export function pairLayout(fixed: FixedOptions = {}): PairLayout {
  const key = fixedKey(fixed);
  let layout = layouts.get(key);
  if (layout === undefined) {
    const features = swarmFeatures(fixed);
    const base = features.map(() => new Array<number>(features.length).fill(-1));
    let pairs = 0;
    for (let i = 0; i < features.length; i++) {
      for (let j = i + 1; j < features.length; j++) {
        base[i][j] = pairs;
        pairs += features[i].values.length * features[j].values.length;
      }
    }
    const shows = features.map((f) => {
      if (f.shows === undefined) return null;
      const kinds = f.shows.kinds.map((name) => {
        const counter = EVENT_KINDS.find((k) => k.name === name)?.counter ?? null;
        // Every kind a feature switches on has a tag of its own (swarm-coverage.test.ts holds it to that).
        if (counter === null) throw new Error(`swarm coverage: kind ${name} has no counter tag to show it was taken`);
        return { name, counter };
      });
      return { quiet: f.values.indexOf(f.shows.quiet), kinds };
    });
    layout = { features, pairs, base, shows };
    layouts.set(key, layout);
  }
  return layout;
}

/** The first seed at which each pair of a {@link PairLayout} occurred, -1 where none did. */
export type FirstSeeds = number[];

/** A table in which no pair has occurred. */
export function noFirstSeeds(layout: PairLayout): FirstSeeds {
  return new Array<number>(layout.pairs).fill(-1);
}

/**
 * Notes the pairs of one seed's options in `first` (where no lower seed
 * has them: seeds may come in any order). With `took`, a value that
 * switches kinds on counts only when the run took a step of one of them.
 * Returns how many pairs occurred for the first time in this table.
 */
export function notePairs(layout: PairLayout, first: FirstSeeds, seed: number, options: WorldOptions, took?: (k: ShownKind) => boolean): number {
  const { features, base, shows } = layout;
  const n = features.length;
  const v = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const f = features[i];
    const value = f.values.indexOf(f.read(options));
    const s = shows[i];
    v[i] = took !== undefined && s !== null && value !== s.quiet && !s.kinds.some(took) ? -1 : value;
  }
  let fresh = 0;
  for (let i = 0; i < n; i++) {
    if (v[i] < 0) continue;
    for (let j = i + 1; j < n; j++) {
      if (v[j] < 0) continue;
      const k = base[i][j] + v[i] * features[j].values.length + v[j];
      const had = first[k];
      if (had < 0) fresh++;
      if (had < 0 || seed < had) first[k] = seed;
    }
  }
  return fresh;
}

/** Merges tables of first seeds (of shards of one check): per pair, the lowest. */
export function mergeFirstSeeds(tables: readonly FirstSeeds[]): FirstSeeds {
  const out = [...tables[0]];
  for (const t of tables.slice(1)) {
    if (t.length !== out.length) throw new Error(`swarm coverage: shards count ${t.length} and ${out.length} pairs`);
    for (let k = 0; k < t.length; k++) if (t[k] >= 0 && (out[k] < 0 || t[k] < out[k])) out[k] = t[k];
  }
  return out;
}

/** The coverage of seeds [from, to) read off a table of first seeds (a pair first seen at or past `to` did not occur in the range). */
export function coverageOf(layout: PairLayout, first: FirstSeeds, from: number, to: number): PairCoverage {
  const { features, pairs } = layout;
  const n = features.length;
  const occurred = (k: number): boolean => first[k] >= from && first[k] < to;
  let covered = 0;
  let last = -1;
  for (let k = 0; k < pairs; k++) {
    if (!occurred(k)) continue;
    covered++;
    last = Math.max(last, first[k]);
  }
  const coveredAfter: Record<string, number> = {};
  for (const m of [100, 500]) {
    if (m > to - from) continue;
    let c = 0;
    for (let k = 0; k < pairs; k++) if (occurred(k) && first[k] < from + m) c++;
    coveredAfter[String(m)] = c;
  }
  coveredAfter[String(to - from)] = covered;
  const missing: string[] = [];
  for (let i = 0; i < n; i++) {
    const fi = features[i];
    for (let j = i + 1; j < n; j++) {
      const fj = features[j];
      for (let k = 0; k < fi.values.length * fj.values.length; k++) {
        if (!occurred(layout.base[i][j] + k)) missing.push(`${fi.name}=${fi.values[Math.floor(k / fj.values.length)]} & ${fj.name}=${fj.values[k % fj.values.length]}`);
      }
    }
  }
  // Shortest first (a stable sort: table order among equals), so the most pairs fit in a line.
  missing.sort((a, b) => a.length - b.length);
  // No pairs at all (every feature fixed): all occurred with the first seed.
  const allBySeed = covered < pairs ? null : last >= 0 ? last : to > from ? from : null;
  return { features: n, pairs, covered, allBySeed, coveredAfter, missing: missing.slice(0, 20) };
}

/**
 * Pair coverage of seeds [from, to) drawn by `options`, over the features of
 * `fixed`. With `occurred` (the kinds whose steps a seed's run took), a pair
 * counts only where it was exercised: a value that switches kinds on counts
 * in a run that took a step of one of them (`Feature.shows`).
 */
export function pairCoverage(
  from: number,
  to: number,
  fixed: FixedOptions,
  options: (seed: number) => WorldOptions,
  occurred?: (seed: number) => ReadonlySet<string>,
): PairCoverage {
  const layout = pairLayout(fixed);
  const first = noFirstSeeds(layout);
  let covered = 0;
  for (let seed = from; seed < to && covered < layout.pairs; seed++) {
    // Once every pair has occurred later seeds add none (a long run need not be read through).
    const took = occurred?.(seed);
    covered += notePairs(layout, first, seed, options(seed), took === undefined ? undefined : (k) => took.has(k.name));
  }
  return coverageOf(layout, first, from, to);
}
