/**
 * The bench's section on the route issue 23 named first for a million steps
 * a second: running `check`'s seeds on the packed world, whose transitions
 * are derived from the object world once and then replayed from a memo (what
 * `explore` searches). It times what that route would cost, beside the seed
 * runner `check` uses, on the same seeds:
 * - check's worlds: every seed draws its own world (engines, ids, bodies,
 *   attempts, broker, settings), so each seed needs a packed world of its
 *   own, and each of its steps meets a memo that is empty or nearly so;
 * - one world: every seed on the same world, one packed world for all, its
 *   memo warm after the first seeds: the most the route could give;
 * - and how often a step of check's seeds meets inputs met before, in its
 *   seed or an earlier one: the most a memo shared by every world could
 *   serve ({@link stepInputRepeats}).
 *
 * A packed walk takes as many steps as the seed's run did on the object
 * world (fewer where it runs out of events), drawing uniformly among the
 * enabled events with the seed's own chooser. It lists and steps, nothing
 * else: no weights, no properties, no tags or decisions counted, no healing.
 * So it does less per step than a seed run does, and the ratios below are
 * upper bounds of what the route gives (docs/performance.md, 'The seed loop').
 */
import { failClosed } from '../../model/catalog/index.ts';
import { BOUNDS_DEFAULT, fixedOptions, seedBounds, steppersFor } from '../check.ts';
import { seededChooser } from '../core/chooser.ts';
import { runSeedFast } from '../core/fast-run.ts';
import { runSeed } from '../core/random.ts';
import { swarmOptions, type WorldOptions } from '../outbox/options.ts';
import { outboxSystem, type Steppers, type WorldRules } from '../outbox/outbox-system.ts';
import { Unrepresentable } from '../outbox/packed/layout.ts';
import { StepReads } from '../outbox/packed/step-reads.ts';
import { packedOutbox, type PackedOutbox } from '../outbox/packed/system.ts';
import type { EngineProc, World, WorldEvent } from '../outbox/world.ts';
import { countText } from '../count-text.ts';
import { processCpuSeconds } from './cpu-seconds.ts';
import { alternatedRounds } from './rounds.ts';
import { sectionLog } from './section-log.ts';

/** The heading of this section: `--only packed-seeds` replaces the section under it in BENCHMARKS.md. */
export const PACKED_SEEDS_HEADING = "## check's seeds on the packed world: what the route would cost";

/** Seeds of each side, and rounds. */
const SEEDS = 2_000;
/** Seeds over which the repeats of a step's inputs are counted. */
const REPEAT_SEEDS = 8_000;
const ROUNDS = 3;

/** The packed world of `options`, as `explore` builds it, or null where it cannot list the world's kinds. */
export function packedWorld(options: WorldOptions, worldRules: WorldRules, steppers: Steppers): PackedOutbox | null {
  const stepReads = new StepReads();
  try {
    return packedOutbox(options, worldRules, outboxSystem(options, worldRules, stepReads.wrap(steppers, worldRules)), { stepReads });
  } catch (err) {
    if (err instanceof Unrepresentable) return null;
    throw err;
  }
}

/** Up to `steps` steps of `system` from its initial state, each drawn uniformly by seed `seed`'s chooser: the steps taken. */
export function packedWalk(system: PackedOutbox, seed: number, steps: number): number {
  const chooser = seededChooser(seed);
  let at = new Int32Array(system.width);
  let next = new Int32Array(system.width);
  system.initial(at);
  for (let k = 0; k < steps; k++) {
    const events = system.events(at);
    if (events.length === 0) return k;
    system.apply(at, events[chooser.int('schedule', events.length)], next);
    const was = at;
    at = next;
    next = was;
  }
  return steps;
}

/** What `check --rules fail-closed` fixes of every seed's world (the broker is drawn per seed). */
export const FAIL_CLOSED_FIXED = fixedOptions({ broker: null, oldRules: null });

/** The worlds of seeds [1, seeds], each the world a seed of `check --rules fail-closed` draws, or `one` for every seed. */
function worldsOf(seeds: number, one: WorldOptions | null): WorldOptions[] {
  return Array.from({ length: seeds }, (_, i) => one ?? swarmOptions(i + 1, FAIL_CLOSED_FIXED));
}

/** One side's figures: steps and CPU seconds. */
export interface SideFigures {
  steps: number;
  seconds: number;
}

/** The seed runner `check` uses, on `worlds[i]` for seed i + 1: each run's steps (in `lengths`) and the side's figures. */
export function objectSide(worlds: readonly WorldOptions[], steppers: Steppers, lengths: number[]): SideFigures {
  const worldRules = { rules: failClosed };
  const t = processCpuSeconds();
  let steps = 0;
  for (let i = 0; i < worlds.length; i++) {
    const o = worlds[i];
    const n = runSeedFast(outboxSystem(o, worldRules, steppers), i + 1, seedBounds(BOUNDS_DEFAULT, o)).steps;
    lengths[i] = n;
    steps += n;
  }
  return { steps, seconds: processCpuSeconds() - t };
}

/**
 * Which packed world a walk runs on: one built for each seed, one built for
 * all seeds (all worlds are then the same), or one given, built and walked
 * before (its memo warm).
 */
export type PackedWorlds = 'per-seed' | 'shared' | PackedOutbox;

/**
 * Packed walks of `lengths[i]` steps on `worlds[i]`, on the packed worlds
 * `which` says. Seeds whose world the packed explorer cannot list are
 * skipped and counted.
 */
export function packedSide(worlds: readonly WorldOptions[], steppers: Steppers, lengths: readonly number[], which: PackedWorlds): SideFigures & { skipped: number } {
  const worldRules = { rules: failClosed };
  const t = processCpuSeconds();
  let steps = 0;
  let skipped = 0;
  let one: PackedOutbox | null = typeof which === 'string' ? null : which;
  for (let i = 0; i < worlds.length; i++) {
    const system = which === 'per-seed' ? packedWorld(worlds[i], worldRules, steppers) : (one ??= packedWorld(worlds[i], worldRules, steppers));
    if (system === null) {
      skipped++;
      continue;
    }
    steps += packedWalk(system, i + 1, lengths[i]);
  }
  return { steps, seconds: processCpuSeconds() - t, skipped };
}

/**
 * The world of the one-world row: the first of seeds 1, 2, ... whose world
 * has two engines or more and two bodies or more (a run of some length, not
 * one engine delivering one body) and that the packed explorer can list.
 */
function firstPackedWorld(steppers: Steppers): { seed: number; options: WorldOptions } {
  for (let seed = 1; ; seed++) {
    const options = swarmOptions(seed, FAIL_CLOSED_FIXED);
    if (options.engines < 2 || options.bodiesPerId < 2) continue;
    if (packedWorld(options, { rules: failClosed }, steppers) !== null) return { seed, options };
  }
}

/** Which options a step's key holds: those a step may read (attempts, broker mode, settings, the broker's answer once faults stop), attempts and broker mode only, or none. */
export type KeyOptions = 'may-read' | 'attempts-broker' | 'none';

/** An engine as a key holds it: without its pid (a memo serves every engine), and its memory likewise. */
function engineKey(p: EngineProc): unknown {
  const { pid: _pid, ...ctx } = p.ctx;
  return [p.version, p.state, ctx];
}

/**
 * What a memo shared by every world would key a step by, in whole slots:
 * the event (without its pid), the engine it names, the slots of the id it
 * concerns (a claim's holder as this engine or another) and, for a step no
 * engine takes, the world's budgets; {@link optionsKey} adds the options. A real
 * key would hold only what the step read, but most steps read the engine's
 * memory and the whole record they complete, so it would hold little less
 * (docs/performance.md, 'What a cold suite spends').
 */
function stepKey(w: World, e: WorldEvent): string {
  const pid = 'pid' in e ? e.pid : null;
  const engine = pid === null ? undefined : w.engines.find((p) => p.pid === pid);
  const id = 'id' in e && typeof e.id === 'string' ? e.id : (engine?.ctx.id ?? engine?.ctx.file?.id ?? null);
  const claim = id === null ? undefined : w.claims[id];
  const holder = claim?.kind === 'held' ? (claim.owner === pid ? 'self' : 'other') : null;
  const { pid: _pid, ...event } = e as WorldEvent & { pid?: number };
  return JSON.stringify([
    event,
    engine === undefined ? null : engineKey(engine),
    id,
    id === null ? null : [w.records[id] ?? null, claim === undefined ? null : { ...claim, owner: holder }, w.live[id] ?? null, w.broker[id] ?? null],
    engine === undefined ? [w.crashes, w.corruptions, w.operatorActions] : null,
  ]);
}

/** The options a step's key holds, as `which` says (JSON, appended to {@link stepKey}'s, itself one whole JSON value). */
function optionsKey(options: WorldOptions, which: KeyOptions): string {
  return JSON.stringify(which === 'none' ? null : which === 'attempts-broker' ? [options.attemptsMax, options.broker] : [options.attemptsMax, options.broker, options.settings, options.healAnswer]);
}

/** Every {@link KeyOptions}. */
const KEY_OPTIONS: readonly KeyOptions[] = ['may-read', 'attempts-broker', 'none'];

/**
 * Of the steps of seeds 1..`seeds` of `check --rules fail-closed`, how many
 * meet a key (`stepKey`) already met, by this or an earlier seed, for each
 * of the key's option sets: the most a memo shared by every world could
 * serve without stepping the object world. The seeds run once; each step is
 * keyed once, with each set of its seed's options appended.
 */
export function stepInputRepeats(seeds: number, steppers: Steppers): Record<KeyOptions, { steps: number; repeats: number }> {
  const seen = KEY_OPTIONS.map(() => new Set<string>());
  const repeats = KEY_OPTIONS.map(() => 0);
  let steps = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const options = swarmOptions(seed, FAIL_CLOSED_FIXED);
    const run = runSeed(outboxSystem(options, { rules: failClosed }, steppers), seed, seedBounds(BOUNDS_DEFAULT, options), true);
    const states = run.states ?? [];
    const opts = KEY_OPTIONS.map((which) => optionsKey(options, which));
    for (let i = 0; i < run.steps.length; i++) {
      const e = run.steps[i].event;
      if (e === null) continue;
      const step = stepKey(states[i], e);
      steps++;
      for (let k = 0; k < KEY_OPTIONS.length; k++) {
        const key = step + opts[k];
        if (seen[k].has(key)) repeats[k]++;
        else seen[k].add(key);
      }
    }
  }
  const at = (which: KeyOptions) => ({ steps, repeats: repeats[KEY_OPTIONS.indexOf(which)] });
  return { 'may-read': at('may-read'), 'attempts-broker': at('attempts-broker'), none: at('none') };
}

/** A world's sizes in a few words. */
function sizesOf(o: WorldOptions): string {
  return `${o.engines} engines, ${o.ids} id${o.ids === 1 ? '' : 's'}, ${o.bodiesPerId} bodies each, attempts ${o.attemptsMax}, broker ${o.broker}`;
}

/** The best (least CPU) of a side's rounds. */
function best<T extends SideFigures>(rounds: readonly T[]): T {
  return rounds.reduce((a, b) => (b.seconds < a.seconds ? b : a));
}

/** The section's lines (markdown), measured now. */
export async function packedSeedsSection(): Promise<string[]> {
  const { lines, log } = sectionLog();
  const steppers = steppersFor(failClosed, null);
  log(PACKED_SEEDS_HEADING);
  log('');
  const one = firstPackedWorld(steppers);
  const oneWorld = worldsOf(SEEDS, one.options);
  // Built once and walked over every seed (in the warm-up below) before it is timed: its memo then holds what those walks meet.
  const warm = packedWorld(one.options, { rules: failClosed }, steppers);
  if (warm === null) throw new Error('bench: the one-world row lost its packed world');
  const rows: string[] = [];
  for (const [label, worlds, which, built] of [
    [`check's worlds (seeds 1 to ${countText(SEEDS)}, each its own world)`, worldsOf(SEEDS, null), 'per-seed', 'one per seed'],
    [`one world (seed ${one.seed}'s: ${sizesOf(one.options)}; for every seed)`, oneWorld, 'shared', 'one, for all seeds'],
    ['the same world, the same seeds again', oneWorld, warm, 'the same one, walked over these seeds before'],
  ] as const) {
    const lengths: number[] = [];
    // A warm-up of each side, then alternated rounds.
    objectSide(worlds, steppers, lengths);
    packedSide(worlds, steppers, lengths, which);
    const sides = await alternatedRounds<SideFigures & { skipped: number }>(
      ROUNDS,
      async () => ({ ...objectSide(worlds, steppers, lengths), skipped: 0 }),
      async () => packedSide(worlds, steppers, lengths, which),
    );
    const o = best(sides.one);
    const p = best(sides.two);
    const oRate = o.steps / o.seconds;
    const pRate = p.steps / p.seconds;
    const skipped = p.skipped === 0 ? 'none' : `${countText(p.skipped)} of ${countText(worlds.length)} (a kind it does not list)`;
    rows.push(`| ${label} | ${countText(o.steps)} | ${o.seconds.toFixed(2)} | ${countText(Math.round(oRate))} | ${built} | ${skipped} | ${countText(p.steps)} | ${p.seconds.toFixed(2)} | ${countText(Math.round(pRate))} | **${(pRate / oRate).toFixed(2)}x** |`);
  }
  log(`The packed world, with transitions derived from the object world and memoised (what \`explore\` searches), against the seed runner \`check\` uses, on the same seeds of \`check --rules fail-closed\`, in this process: ${ROUNDS} alternated rounds after a warm-up of each, best of each, CPU seconds. A packed walk takes as many steps as the seed's run took (fewer where it runs out of events), drawing uniformly among the enabled events with the seed's own chooser, and does nothing else: no weights, properties, tags, decisions or healing. So the packed rates are upper bounds of the route.`);
  log('');
  log('| seeds on | object steps | object CPU s | object steps/s | packed worlds built | seeds skipped | packed steps | packed CPU s | packed steps/s | **packed / object** |');
  log('| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |');
  for (const row of rows) log(row);
  log('');
  log("Each of check's seeds draws a world of its own, and a seed runs about fifty steps in it: a packed world is built and its transitions derived afresh for every seed, and nearly every step is a first meeting, which steps the object world and then packs, watches and memoises the result. Only a world met again and again, as a search meets it, repays that. The one-world rows are the most the route could give: every seed on one world, its memo filled as the walks go (second row) or already holding every step the walks take (third row).");
  log('');
  // Would a memo shared by every world do better? How often a step's inputs repeat across the seeds.
  log(`A memo shared by every world would serve a step whose inputs it met before, in this seed or an earlier one. How often that happens over seeds 1 to ${countText(REPEAT_SEEDS)}: a step keyed by its event, the engine it names (its state and memory, without pids), the slots of the id it concerns and, for a step no engine takes, the world's budgets; with the options a step may read, fewer, or none (a key without them is unsound: the rows bound the repeats from above).`);
  log('');
  log('| options in the key | steps | met before | share |');
  log('| --- | ---: | ---: | ---: |');
  const repeats = stepInputRepeats(REPEAT_SEEDS, steppers);
  for (const [label, which] of [
    ['attempts, broker mode, settings, the steady answer', 'may-read'],
    ['attempts and broker mode only', 'attempts-broker'],
    ['none', 'none'],
  ] as const) {
    const r = repeats[which];
    log(`| ${label} | ${countText(r.steps)} | ${countText(r.repeats)} | **${((100 * r.repeats) / r.steps).toFixed(1)}%** |`);
  }
  log('');
  log('A derivation costs about fifty microseconds and an object step about three (docs/performance.md, \'The seed loop\'), so with a step met again at about half a microsecond a memo pays only where more than 95% of steps meet their key again, and a million steps a second needs 99%.');
  log('');
  return lines;
}
