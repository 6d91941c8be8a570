/**
 * The world's logical clock (docs/rules.md, 'Time'): `tick`, time passing
 * between steps, and `stall`, a fault in which an engine pauses while time
 * runs on past its lease. Only a world with a clock (setting `ticks` > 0) has
 * either; a world without one keeps no clock in its state, so its search is
 * the one it always was.
 *
 * The state space stays finite: while faults last the clock stops at the
 * horizon `ticks` (a stall may overshoot it by less than one lease), and
 * leases are absolute ticks on the claim. Once faults stop (the liveness
 * phase) time runs on without a horizon, bounded by the phase's own steps,
 * so that every window a rule waits for can pass.
 *
 * Everything of it is declared here: its two events, its two world settings
 * (the clock's horizon, `--ticks`, declared by `tick`; the lease, `--lease`,
 * declared by `stall`, both drawn by the swarm from the clock's stream), and
 * the world slot it owns (the clock's reading).
 */
import type { LifecycleState } from '../../../model/lifecycle.ts';
import type { WorldOptions } from '../options.ts';
import type { World, WorldEvent } from '../world.ts';
import { copyWorld } from '../world-copy.ts';
import type { WorldContext } from './context.ts';
import { stepText, weightOf, eventKind, type EventKind, type Setting } from './kind.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** Time passes between steps: the clock advances to `to`. */
    tick: { to: number };
    /** Engine `pid` stalls (a pause) while the clock runs on to `to`: its lease expires under it. */
    stall: { pid: number; at: LifecycleState; to: number };
  }
  interface World {
    /**
     * The logical clock, in ticks, in a world with a clock only; absent until
     * time first passes (it reads 0 then), so a world without a clock has
     * the states it always had. It advances by `tick` and `stall` events.
     */
    clock?: number;
  }
}

type Tick = Extract<WorldEvent, { kind: 'tick' }>;
type Stall = Extract<WorldEvent, { kind: 'stall' }>;

/**
 * The clock's horizon in random runs: above what a run's faulty phase
 * reaches (at most 120 steps, about one in eight a tick, plus stalls), so
 * that no window a rule sets ends after it.
 */
export const CHECK_TICKS_MAX = 64;

/**
 * The seeded stream both settings are drawn from: the clock is on in a
 * seed exactly when its lease is (one seed in four), so that most seeds keep
 * the timeless world every other knob was tuned in.
 */
const CLOCK_STREAM = 'clock:lease';

/** The clock's horizon: while faults last time passes up to it, in ticks; 0: the world has no clock. */
const ticksSetting: Setting = {
  name: 'ticks',
  flag: '--ticks',
  help: {
    check: 'a logical clock whose horizon is n ticks while faults last; 0: no clock (default: drawn per seed, with the lease)',
    explore: 'a logical clock whose horizon is n ticks while faults last (default 0: no clock)',
  },
  min: 0,
  max: CHECK_TICKS_MAX,
  off: 0,
  stream: CLOCK_STREAM,
  draw: (next) => (next() < 0.75 ? 0 : CHECK_TICKS_MAX),
  words: (v) => `ticks=${v}`,
  banner: (v) => (v === 0 ? 'no clock' : `clock to tick ${v}`),
};

/** A claim's lease, in ticks from when it was taken; 0 (or no clock): claims never expire. */
const leaseSetting: Setting = {
  name: 'lease',
  flag: '--lease',
  help: {
    check: "a claim's lease expires n ticks after it is taken; needs --ticks; 0: never (default: drawn per seed, 1-3 in one in four)",
    explore: "a claim's lease expires n ticks after it is taken; needs --ticks (default 0: never)",
  },
  min: 0,
  max: 12,
  off: 0,
  stream: CLOCK_STREAM,
  // The same first number as the horizon's draw: on (1-3 ticks) exactly in the seeds with a clock.
  draw: (next) => (next() < 0.75 ? 0 : 1 + Math.floor(next() * 3)),
  words: (v) => `lease=${v}`,
  banner: (v) => (v === 0 ? 'no leases' : `lease ${v}`),
  needs: { setting: ticksSetting.name, what: 'a clock' },
};

const setting = (options: WorldOptions, s: Setting): number => options.settings?.[s.name] ?? s.off;

/**
 * The clock's settings of the options last asked about: every engine step
 * and several kinds' `enabled` ask, and a setting read by its name from
 * `settings` is a generic keyed look-up (a fiftieth of a seeded run). A run
 * asks about one world's options (never changed once drawn) at every step.
 */
let clockOptions: WorldOptions | null = null;
let clockHorizon = 0;
let clockLease = 0;

function clockOf(options: WorldOptions): void {
  clockOptions = options;
  clockHorizon = setting(options, ticksSetting);
  clockLease = clockHorizon > 0 ? setting(options, leaseSetting) : 0;
}

/** The clock's horizon in a world's options (0: no clock). */
export const horizonOf = (options: WorldOptions): number => {
  if (options !== clockOptions) clockOf(options);
  return clockHorizon;
};
/** Whether a world of these options has a clock. */
export const hasClock = (options: WorldOptions): boolean => horizonOf(options) > 0;
/** A claim's lease in a world's options (0: claims never expire, as in a world without a clock). */
export const leaseOf = (options: WorldOptions): number => {
  if (options !== clockOptions) clockOf(options);
  return clockLease;
};

/** The clock as decisions see it: 0 in a world without one, and before time first passes. */
export function nowOf(w: World): number {
  return w.clock ?? 0;
}

/** `w` with its clock moved on by `ticks` (for probing what a world does later). */
export function later(w: World, ticks: number): World {
  const next = copyWorld(w);
  next.clock = nowOf(w) + ticks;
  return next;
}

/**
 * The tick at which a claim taken now expires, or undefined in a world
 * without leases (its claims never expire; lease 0 or no clock).
 */
export function leaseUntil(ctx: WorldContext, w: World): number | undefined {
  const lease = leaseOf(ctx.options);
  return lease <= 0 ? undefined : nowOf(w) + lease;
}

export const tick: EventKind<Tick> = eventKind({
  name: 'tick',
  group: 'process',
  tag: 'normal',
  range: 'world',
  event: 'tick',
  enabled: (w, ctx) => {
    if (!hasClock(ctx.options)) return [];
    const now = nowOf(w);
    return now < horizonOf(ctx.options) || w.healing ? [{ kind: 'tick', to: now + 1 }] : [];
  },
  reads: ['clock', 'healing'],
  inWorld: (ctx) => hasClock(ctx.options),
  apply: (w, e, _ctx, tags) => {
    tags.push('tick');
    const next = copyWorld(w);
    next.clock = e.to;
    return next;
  },
  label: (e) => `tick ${e.to}`,
  counter: 'tick',
  draw: (e, v) => ({ from: 'Producer', to: 'Producer', broken: false, text: stepText(v, `time passes: the clock reads ${e.to}`) }),
  knob: { stream: ticksSetting.stream, weight: (options) => (hasClock(options) ? 1 : 0), draw: 'setting' },
  setting: ticksSetting,
  slots: ['clock'],
  // Time passing is no fault: it goes on once faults stop.
  steadyStep: true,
  doc: {
    example: 'tick 3',
    enabled: 'the world has a clock (`ticks` > 0) and it reads less than `ticks`; once faults stop, always',
    does: 'advances the clock by one tick; leases taken `lease` ticks ago expire; windows a rule waits for may open',
    stands: 'time passing between two steps (a relay polling on a schedule, a back-off timer running)',
  },
});

/** The claims engine `pid` holds whose lease has not expired yet. */
function liveLease(w: World, pid: number): boolean {
  const now = nowOf(w);
  for (const id of Object.keys(w.claims)) {
    const c = w.claims[id];
    if (c.kind === 'held' && c.owner === pid && c.until !== undefined && c.until > now) return true;
  }
  return false;
}

const stallWeight = weightOf('stall');
/** The stall fault's weight: its drawn weight in a world with leases, else 0. */
const stallWeightOf = (options: WorldOptions): number => (leaseOf(options) > 0 ? stallWeight(options) : 0);

export const stall: EventKind<Stall> = eventKind({
  name: 'stall',
  group: 'fault',
  tag: 'fault',
  range: 'engine',
  event: 'stall',
  enabled: (w, ctx, { engine }) => {
    const lease = leaseOf(ctx.options);
    if (engine === null || lease === 0 || stallWeightOf(ctx.options) === 0) return [];
    const now = nowOf(w);
    return now < horizonOf(ctx.options) && liveLease(w, engine.pid) ? [{ kind: 'stall', pid: engine.pid, at: engine.state, to: now + lease }] : [];
  },
  reads: ['clock', 'claims'],
  inWorld: (ctx) => leaseOf(ctx.options) !== 0 && stallWeightOf(ctx.options) !== 0,
  weight: (_w, ctx) => stallWeightOf(ctx.options),
  apply: (w, e, _ctx, tags) => {
    tags.push('fault:stall');
    const next = copyWorld(w);
    next.clock = e.to;
    return next;
  },
  label: (e) => `stall e${e.pid} (${e.at}) to tick ${e.to}`,
  counter: 'fault:stall',
  draw: (e, v) => ({
    from: `e${e.pid}`,
    to: `e${e.pid}`,
    broken: true,
    text: stepText(v, `stall (at ${e.at}) until tick ${e.to}`),
    note: { over: `e${e.pid}`, text: `fault: e${e.pid} pauses past its lease; it resumes unaware` },
  }),
  hidden: 'the engine paused past its lease: its claim reads expired, and it resumes unaware',
  knob: { stream: 'fault:stall', weight: stallWeightOf, draw: 'on' },
  setting: leaseSetting,
  doc: {
    example: 'stall e1 (posting) to tick 4',
    enabled: 'the world has leases (`lease` > 0 and a clock), the clock reads less than `ticks`, faults have not stopped, and the engine holds a claim whose lease has not expired',
    does: "advances the clock by one lease (`lease` ticks), so the engine's lease expires while it keeps its memory and its place in the lifecycle; it resumes where it was",
    stands: 'a garbage-collection pause, a frozen VM or a slow disk: the relay stops past its lease while another takes the message over (two relays sending at once)',
  },
});
