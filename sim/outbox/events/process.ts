/**
 * Engine processes coming and going (subsystem `process`): restarts of
 * missing engines, and with `--old-rules` rolling upgrades. Crashes are
 * faults (faults.ts).
 *
 * A process started here takes a fresh pid, or, in a world of stable
 * identities (`--stable-ids 1`, drawn by the swarm from a stream of its
 * own), the pid of an engine that is gone (any of them: a restart event per
 * such engine; an upgrade keeps its own): a relay with a fixed name, a pod
 * that keeps its name across a restart. It then finds the claims its
 * predecessor held as its own (`mine`), which a fresh pid never does
 * (docs/faults.md, 'Processes').
 */
import { newEngineProc } from '../stepper.ts';
import type { EngineProc, World, WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import type { WorldOptions } from '../options.ts';
import { settingOn, stepText, eventKind, type EventKind, type Setting, type StepView } from './kind.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    /** `as`: under stable identities, the engine that is gone whose identity the new process takes. */
    restart: { version: 'new' | 'old'; as?: number };
    upgrade: { pid: number };
  }
}

type Restart = Extract<WorldEvent, { kind: 'restart' }>;
type Upgrade = Extract<WorldEvent, { kind: 'upgrade' }>;

/** Whether a restarted or upgraded process keeps an old identity; 0: a fresh pid each time. */
const stableIds: Setting = {
  name: 'stableIds',
  flag: '--stable-ids',
  help: {
    check: 'with 1, a restarted or upgraded engine takes the pid of one that is gone (a fixed relay name); 0: a fresh pid (default: drawn per seed)',
    explore: 'with 1, a restarted or upgraded engine takes the pid of one that is gone (a fixed relay name; default 0: a fresh pid)',
  },
  min: 0,
  max: 1,
  off: 0,
  stream: 'process:stable-ids',
  // On in one seed in four: most deployments name their workers afresh, some (a StatefulSet, a
  // relay configured by name) keep the name, and a rule set must hold in both.
  draw: (next) => (next() < 0.75 ? 0 : 1),
  words: (v) => `stableIds=${v}`,
  banner: (v) => (v === 0 ? 'fresh pids' : 'stable identities'),
};

/**
 * Whether the older version's pre-send write marks the record QUEUED
 * (queued-release.ts): a release that marked attempts in flight by status,
 * which a new release meets in a rolling upgrade; 0: it writes as its rule
 * set does. Means something only beside an older version.
 */
const oldWritesQueued: Setting = {
  name: 'oldWritesQueued',
  flag: '--old-writes-queued',
  help: {
    check: 'with 1, the older version beside (--old-rules, or the upgrade) also writes the status QUEUED in its pre-send write, as a release that marked attempts in flight by status (default: drawn per seed)',
    explore: 'with 1, the older version (--old-rules) also writes the status QUEUED in its pre-send write, as a release that marked attempts in flight by status (default 0)',
  },
  min: 0,
  max: 1,
  off: 0,
  stream: 'process:old-writes-queued',
  // In one seed in four (of those that run an older version: one in four): a release before the one a rule set
  // extends may have marked records so, and the API lets a rule set read QUEUED however it likes.
  draw: (next) => (next() < 0.75 ? 0 : 1),
  needsOlder: true,
  words: (v) => `oldWritesQueued=${v}`,
  banner: (v) => (v === 0 ? 'the old version writes as its rules do' : 'the old version writes QUEUED in flight'),
};

/** The setting's name, for a world that sets it (small-worlds.ts). */
export const OLD_WRITES_QUEUED = oldWritesQueued.name;

/** Whether a world of these options runs its old-version engines on the release that writes QUEUED in flight (queued-release.ts). */
export function oldWritesQueuedIn(options: WorldOptions): boolean {
  return settingOn(options, oldWritesQueued);
}

/** Whether a world of these options restarts and upgrades engines under an old identity. */
export function stableIdsIn(options: WorldOptions): boolean {
  return settingOn(options, stableIds);
}

/** The pids of engines that are gone (below the next fresh pid, and not alive), lowest first: under stable identities, the names a restart (or healing) may give. */
export function gonePids(w: World): number[] {
  const out: number[] = [];
  for (let pid = 1; pid < w.nextPid; pid++) {
    let alive = false;
    for (let i = 0; i < w.engines.length && !alive; i++) alive = w.engines[i].pid === pid;
    if (!alive) out.push(pid);
  }
  return out;
}

/** `w` with `engines`, one of them started with `pid`: the next fresh pid moves on only past a fresh one. */
function withStarted(w: World, engines: EngineProc[], pid: number): World {
  return withChanges(w, { engines, nextPid: pid === w.nextPid ? pid + 1 : w.nextPid });
}

/** The engine a step started, if any. */
function started(v: StepView): EngineProc | undefined {
  return v.enginesAfter.find((p) => !v.enginesBefore.some((q) => q.pid === p.pid));
}

export const restart: EventKind<Restart> = eventKind({
  name: 'restart',
  processes: 'starts',
  group: 'process',
  tag: 'normal',
  range: 'world',
  event: 'restart',
  enabled: (w, ctx) => {
    if (w.engines.length >= ctx.options.engines) return [];
    // An old-rules restart stands for a deploy in progress, so it stops with the faults.
    const old = ctx.skew && !w.healing;
    if (!stableIdsIn(ctx.options)) return old ? [{ kind: 'restart', version: 'new' }, { kind: 'restart', version: 'old' }] : [{ kind: 'restart', version: 'new' }];
    // Under stable identities, any engine that is gone may come back: which one is the supervisor's choice.
    const out: Restart[] = [];
    for (const pid of gonePids(w)) {
      out.push({ kind: 'restart', version: 'new', as: pid });
      if (old) out.push({ kind: 'restart', version: 'old', as: pid });
    }
    return out;
  },
  reads: ['engines', 'healing', 'nextPid'],
  apply: (w, e, ctx, tags) => {
    const pid = e.as ?? w.nextPid;
    const proc = newEngineProc(pid, e.version, ctx.options.attemptsMax);
    tags.push('restart');
    return withStarted(w, [...w.engines, proc], pid);
  },
  label: (e) => (e.as === undefined ? `restart engine (${e.version})` : `restart engine as e${e.as} (${e.version})`),
  counter: 'restart',
  draw: (e, v) => {
    const fresh = started(v);
    const who = fresh === undefined ? 'Producer' : `e${fresh.pid}`;
    return { from: who, to: who, broken: false, text: stepText(v, v.skewed ? `restart: a new process on the ${e.version} rules` : 'restart: a new process') };
  },
  knob: null,
  doc: {
    example: 'restart engine (new)',
    enabled: 'fewer engines are alive than the world has; with `--old-rules`, before faults stop, also on the old rules',
    does: 'starts an engine on those rules, with a fresh pid (with `--stable-ids 1`, the pid of an engine that is gone: one event per such engine) and empty memory',
    stands: 'a supervisor restarting a crashed worker (on an old node during a rolling deploy; under a fixed name, with `--stable-ids 1`)',
  },
  setting: stableIds,
});

export const upgrade: EventKind<Upgrade> = eventKind({
  name: 'upgrade',
  processes: 'ends-and-starts',
  group: 'process',
  tag: 'fault',
  range: 'engine',
  event: 'upgrade',
  enabled: (w, ctx, { engine }) => (ctx.skew && !w.healing && engine?.version === 'old' ? [{ kind: 'upgrade', pid: engine.pid }] : []),
  reads: ['healing'],
  inWorld: (ctx) => ctx.skew,
  apply: (w, e, ctx, tags) => {
    // A rolling upgrade stops the old process and starts a new-rules one: memory is lost (under stable identities, not the name).
    const pid = stableIdsIn(ctx.options) ? e.pid : w.nextPid;
    const proc = newEngineProc(pid, 'new', ctx.options.attemptsMax);
    tags.push('fault:upgrade');
    return withStarted(w, [...w.engines.filter((p) => p.pid !== e.pid), proc], pid);
  },
  label: (e) => `upgrade e${e.pid} to new rules`,
  counter: 'fault:upgrade',
  draw: (e, v) => {
    const fresh = started(v);
    const to = fresh === undefined ? `e${e.pid}` : `e${fresh.pid}`;
    return { from: `e${e.pid}`, to, broken: true, text: stepText(v, `upgrade: e${e.pid} stops, ${to} starts on the new rules`), note: { over: `e${e.pid}`, text: 'fault: rolling upgrade' } };
  },
  hidden: 'rolling upgrade',
  knob: null,
  needsOldRules: true,
  setting: oldWritesQueued,
  doc: {
    example: 'upgrade e1 to new rules',
    enabled: 'with `--old-rules`, for each engine on the old rules, before faults stop',
    does: 'stops that engine (memory lost) and starts one on the checked rules with a new pid (with `--stable-ids 1`, its own); with `--old-writes-queued 1` the old engines write QUEUED in their pre-send write',
    stands: 'a rolling upgrade replacing old processes one by one while the outbox is live (off a release that marked attempts in flight by status)',
  },
});
