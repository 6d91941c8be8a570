/**
 * Whether a rule set reads an engine's pid. Decisions are told who decides
 * (`who.pid`), and a rule set may store the pid (a record field that stamps
 * which engine took an attempt) or branch on its value. Then pids mean more
 * than which engine is which: renaming them (symmetry reduction) or deriving
 * one engine's step once for all engines (the packed explorer's programs,
 * `packed/pid-renaming.ts`) may change what happens. A watched rule set is
 * the same rule set whose views hand out `who.pid` through a getter that
 * notes the read; a search that met one is thrown away and run again on the
 * object system, which assumes nothing about pids.
 */
import { DECISIONS, type RuleSet } from '../../model/rules.ts';
import { steppersFor, type StepperKind } from '../check.ts';
import type { Steppers, WorldRules } from './outbox-system.ts';

/** What a watched rule set noted: the first decision that read `who.pid`, or null. */
export interface PidWatch {
  read: string | null;
}

/** One watched copy per rule set: its steppers are built once, and a read once noted stays noted. */
const watchedOf = new WeakMap<RuleSet, { rules: RuleSet; watch: PidWatch }>();

/**
 * How one decision makes a watched `who` for one pid: a constructor whose
 * objects are plain (their prototype is Object's), and the getter of `pid`.
 * Made once per decision and pid, not per view: V8 keeps an object's class
 * only while every object given that property got the same getter, and a
 * new getter per view turned each watched `who` into a slow dictionary
 * object (docs/performance.md, 'What a cold suite spends'). A constructor
 * per pid gives each pid's getter a class of its own to keep.
 */
interface WhoMaker {
  Who: new () => Record<string, unknown>;
  pid: PropertyDescriptor;
}

/** The makers of watched `who`s for one decision, by pid. */
function whoMakers(decision: string, watch: PidWatch): (pid: number) => WhoMaker {
  const makers = new Map<number, WhoMaker>();
  return (pid) => {
    let m = makers.get(pid);
    if (m === undefined) {
      const Who = function () {} as unknown as new () => Record<string, unknown>;
      Who.prototype = Object.prototype;
      // An own enumerable getter: a rule that spreads or serialises `who` reads it too.
      const get = (): number => {
        watch.read ??= decision;
        return pid;
      };
      m = { Who, pid: { enumerable: true, get } };
      makers.set(pid, m);
    }
    return m;
  };
}

/** `view` with its `who.pid` read through a getter that notes the read, or `view` itself when it has no pid. */
function watchedView(view: unknown, makerOf: (pid: number) => WhoMaker): unknown {
  if (typeof view !== 'object' || view === null || !('who' in view)) return view;
  const who = (view as { who: unknown }).who;
  if (typeof who !== 'object' || who === null || typeof (who as { pid?: unknown }).pid !== 'number') return view;
  const maker = makerOf((who as { pid: number }).pid);
  // Every field but the pid, copied by a loop: a rest pattern (`{ pid, ...rest }`) took V8's slow path, ten times this.
  const watched = new maker.Who();
  for (const k in who) if (k !== 'pid' && Object.hasOwn(who, k)) watched[k] = (who as Record<string, unknown>)[k];
  Object.defineProperty(watched, 'pid', maker.pid);
  return { ...view, who: watched };
}

/** The rule set with every decision's `who.pid` watched. */
export function watchPids(rules: RuleSet): { rules: RuleSet; watch: PidWatch } {
  let w = watchedOf.get(rules);
  if (w === undefined) {
    const watch: PidWatch = { read: null };
    const watched: RuleSet = { ...rules };
    for (const decision of DECISIONS) {
      const fn = rules[decision] as ((...args: unknown[]) => unknown) | undefined;
      if (typeof fn !== 'function') continue;
      const makerOf = whoMakers(decision, watch);
      (watched as unknown as Record<string, unknown>)[decision] = (...args: unknown[]) => fn.apply(rules, args.map((a) => watchedView(a, makerOf)));
    }
    w = { rules: watched, watch };
    watchedOf.set(rules, w);
  }
  return w;
}

/** A world's rule sets watched, with steppers of the same kind as `steppers` built from them. */
export interface WatchedWorld {
  worldRules: WorldRules;
  steppers: Steppers;
  /** The first decision of either rule set that read `who.pid` (`rules.decision`), or null. */
  read(): string | null;
}

/**
 * The world's rule sets watched; null when `steppers` are neither kind of
 * stepper `steppersFor` builds for these rule sets (then nothing is known).
 */
export function watchWorld(worldRules: WorldRules, steppers: Steppers): WatchedWorld | null {
  const old = worldRules.oldRules ?? null;
  const kind = (['compiled', 'xstate'] as StepperKind[]).find((k) => steppersFor(worldRules.rules, old, k).new === steppers.new);
  if (kind === undefined) return null;
  const rules = watchPids(worldRules.rules);
  const oldRules = old === null ? null : watchPids(old);
  return {
    worldRules: { rules: rules.rules, ...(oldRules === null ? {} : { oldRules: oldRules.rules }) },
    steppers: steppersFor(rules.rules, oldRules?.rules ?? null, kind),
    read: () => {
      const name = (r: RuleSet, read: string | null) => (read === null ? null : `${r.name}.${read}`);
      return name(worldRules.rules, rules.watch.read) ?? (old === null || oldRules === null ? null : name(old, oldRules.watch.read));
    },
  };
}
