/**
 * The world's logical clock (docs/rules.md, 'Time'): `tick`, time passing
 * between steps, and `stall`, a fault in which an engine pauses while time
 * runs on past its lease. Only a world with a clock (`ticksMax` > 0) has
 * either; a world without one keeps no clock in its state, so its search is
 * the one it always was.
 *
 * The state space stays finite: while faults last the clock stops at the
 * horizon `ticksMax` (a stall may overshoot it by less than one lease), and
 * leases are absolute ticks on the claim. Once faults stop (the liveness
 * phase) time runs on without a horizon, bounded by the phase's own steps,
 * so that every window a rule waits for can pass.
 */
import { CLOCK_KNOB, STALL_KNOB, type WorldOptions } from '../options.ts';
import type { World, WorldEvent } from '../world.ts';
import { stepText, type EventKind } from './kind.ts';

type Tick = Extract<WorldEvent, { kind: 'tick' }>;
type Stall = Extract<WorldEvent, { kind: 'stall' }>;

const horizonOf = (options: WorldOptions): number => options.ticksMax ?? 0;
const leaseOf = (options: WorldOptions): number => (horizonOf(options) > 0 ? (options.leaseTicks ?? 0) : 0);
const stallWeightOf = (options: WorldOptions): number => (leaseOf(options) > 0 ? (options.stallWeight ?? 0) : 0);

export const tick: EventKind<Tick> = {
  name: 'tick',
  group: 'process',
  tag: 'normal',
  range: 'world',
  event: 'tick',
  enabled: (w, ctx) => {
    if (w.clock === undefined) return [];
    return w.clock < horizonOf(ctx.options) || w.healing ? [{ kind: 'tick', to: w.clock + 1 }] : [];
  },
  apply: (w, e, _ctx, tags) => {
    tags.push('tick');
    return { ...w, clock: e.to };
  },
  label: (e) => `tick ${e.to}`,
  counter: 'tick',
  draw: (e, v) => ({ from: 'Producer', to: 'Producer', broken: false, text: stepText(v, `time passes: the clock reads ${e.to}`) }),
  knob: { stream: CLOCK_KNOB.stream, weight: (options) => (horizonOf(options) > 0 ? 1 : 0), draw: CLOCK_KNOB.draw },
  doc: {
    example: 'tick 3',
    enabled: 'the world has a clock (`ticksMax` > 0) and it reads less than `ticksMax`; once faults stop, always',
    does: 'advances the clock by one tick; leases taken `leaseTicks` ago expire; windows a rule waits for may open',
    stands: 'time passing between two steps (a relay polling on a schedule, a back-off timer running)',
  },
};

/** The claims engine `pid` holds whose lease has not expired yet. */
function liveLease(w: World, pid: number): boolean {
  const now = w.clock ?? 0;
  for (const id of Object.keys(w.claims)) {
    const c = w.claims[id];
    if (c.kind === 'held' && c.owner === pid && c.until !== undefined && c.until > now) return true;
  }
  return false;
}

export const stall: EventKind<Stall> = {
  name: 'stall',
  group: 'fault',
  tag: 'fault',
  range: 'engine',
  event: 'stall',
  enabled: (w, ctx, { engine }) => {
    const lease = leaseOf(ctx.options);
    if (engine === null || w.clock === undefined || lease === 0 || stallWeightOf(ctx.options) === 0) return [];
    return w.clock < horizonOf(ctx.options) && liveLease(w, engine.pid) ? [{ kind: 'stall', pid: engine.pid, at: engine.state, to: w.clock + lease }] : [];
  },
  weight: (_w, ctx) => stallWeightOf(ctx.options),
  apply: (w, e, _ctx, tags) => {
    tags.push('fault:stall');
    return { ...w, clock: e.to };
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
  knob: { stream: STALL_KNOB.stream, weight: stallWeightOf, draw: STALL_KNOB.draw },
  doc: {
    example: 'stall e1 (posting) to tick 4',
    enabled: 'the world has leases (`leaseTicks` > 0), the clock reads less than `ticksMax`, faults have not stopped, and the engine holds a claim whose lease has not expired',
    does: "advances the clock by one lease (`leaseTicks`), so the engine's lease expires while it keeps its memory and its place in the lifecycle; it resumes where it was",
    stands: 'a garbage-collection pause, a frozen VM or a slow disk: the relay stops past its lease while another takes the message over (two relays sending at once)',
  },
};
