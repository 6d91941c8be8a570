/**
 * Engine processes coming and going (subsystem `process`): restarts of
 * missing engines, and with `--old-rules` rolling upgrades. Crashes are
 * faults (faults.ts).
 */
import { newEngineProc } from '../stepper.ts';
import type { EngineProc, WorldEvent } from '../world.ts';
import { withChanges } from '../world-copy.ts';
import { stepText, eventKind, type EventKind, type StepView } from './kind.ts';

declare module '../world.ts' {
  interface DeclaredEvents {
    restart: { version: 'new' | 'old' };
    upgrade: { pid: number };
  }
}

type Restart = Extract<WorldEvent, { kind: 'restart' }>;
type Upgrade = Extract<WorldEvent, { kind: 'upgrade' }>;

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
    return ctx.skew && !w.healing ? [{ kind: 'restart', version: 'new' }, { kind: 'restart', version: 'old' }] : [{ kind: 'restart', version: 'new' }];
  },
  reads: ['engines', 'healing'],
  apply: (w, e, ctx, tags) => {
    const pid = w.nextPid;
    const proc = newEngineProc(pid, e.version, ctx.options.attemptsMax);
    tags.push('restart');
    return withChanges(w, { engines: [...w.engines, proc], nextPid: pid + 1 });
  },
  label: (e) => `restart engine (${e.version})`,
  counter: 'restart',
  draw: (e, v) => {
    const fresh = started(v);
    const who = fresh === undefined ? 'Producer' : `e${fresh.pid}`;
    return { from: who, to: who, broken: false, text: stepText(v, `restart: a new process on the ${e.version} rules`) };
  },
  knob: null,
  doc: {
    example: 'restart engine (new)',
    enabled: 'fewer engines are alive than the world has; with `--old-rules`, before faults stop, also on the old rules',
    does: 'starts an engine on those rules, with a fresh pid and empty memory',
    stands: 'a supervisor restarting a crashed worker (on an old node during a rolling deploy)',
  },
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
    // A rolling upgrade stops the old process and starts a new-rules one: memory is lost.
    const pid = w.nextPid;
    const proc = newEngineProc(pid, 'new', ctx.options.attemptsMax);
    tags.push('fault:upgrade');
    return withChanges(w, { engines: [...w.engines.filter((p) => p.pid !== e.pid), proc], nextPid: pid + 1 });
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
  doc: {
    example: 'upgrade e1 to new rules',
    enabled: 'with `--old-rules`, for each engine on the old rules, before faults stop',
    does: 'stops that engine (memory lost) and starts one on the checked rules with a new pid',
    stands: 'a rolling upgrade replacing old processes one by one while the outbox is live',
  },
});
