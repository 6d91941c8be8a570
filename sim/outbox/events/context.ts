/**
 * What the event table's entries see besides the world: one world's options,
 * its ids and rule sets, the engine steppers, and the engine's view of the
 * world (record read, claim) that every engine step observes.
 */
import { readSlot } from '../../../model/record.ts';
import { schemaOf } from '../../../model/schema.ts';
import type { RuleSet, Who } from '../../../model/rules.ts';
import type { ClaimView, RecordRead, RecordSlot } from '../../../model/types.ts';
import type { WorldOptions } from '../options.ts';
import type { Stepper } from '../stepper.ts';
import type { EngineProc, World } from '../world.ts';
import { nowOf } from './clock.ts';

/** The rule sets a world runs. */
export interface WorldRules {
  rules: RuleSet;
  /** Present for version skew: engines of both rule sets share the store. */
  oldRules?: RuleSet;
  /**
   * Every broker answer the same as another (`refuse-ok-false`) is offered
   * apart, whatever these rule sets classify (events/broker.ts,
   * `answerInWorld`): a `diff` whose other side tells it apart, a trace
   * re-run under other rules whose recording holds one. Both then meet the
   * same outside actions.
   */
  answersApart?: true;
}

/** How engine steps are computed (the XState reference, or the derived fast path). */
export interface Steppers {
  new: Stepper;
  old: Stepper;
  /** The old version's as the release that writes QUEUED in flight (queued-release.ts), which a world of `oldWritesQueued` runs instead. */
  oldQueued: Stepper;
}

/** One world's fixed surroundings, built once per world. */
export interface WorldContext {
  options: WorldOptions;
  ids: readonly string[];
  /** Version skew is on: `--old-rules` given and the world asks for it. */
  skew: boolean;
  worldRules: WorldRules;
  steppers: Steppers;
  /** A claim is released when its holder dies (`--session-claims`, events/faults.ts): a dead engine's claim reads as free. */
  sessionClaims?: boolean;
}

/** The rule set an engine process runs. */
export function rulesOf(ctx: WorldContext, proc: EngineProc): RuleSet {
  return proc.version === 'old' && ctx.worldRules.oldRules ? ctx.worldRules.oldRules : ctx.worldRules.rules;
}

/** Who an engine process is, as its decisions are told (docs/rules.md, 'Who decides'). */
export function whoOf(ctx: WorldContext, proc: EngineProc): Who {
  const rules = rulesOf(ctx, proc);
  return { pid: proc.pid, rules: rules.name, schema: rules.schemaKnown };
}

/** The rule set an engine process does not run: the other version under skew; undefined without one. */
export function otherRulesOf(ctx: WorldContext, proc: EngineProc): RuleSet | undefined {
  const { rules, oldRules } = ctx.worldRules;
  if (oldRules === undefined) return undefined;
  return proc.version === 'old' ? rules : oldRules;
}

/** A record slot as an engine of `rules` reads it (its rule set decides which schemas it knows). */
export function readAs(rules: RuleSet, slot: RecordSlot | undefined): RecordRead {
  return readSlot(slot, rules.schemaKnown, rules.recordShape, schemaOf(rules));
}

/** A record as the engine `proc` reads it. */
export function readFor(ctx: WorldContext, w: World, proc: EngineProc, id: string): RecordRead {
  return readAs(rulesOf(ctx, proc), w.records[id]);
}

/**
 * A claim as engine `pid` sees it; in a world with leases, also whether its lease has expired. With
 * `released` (session claims) a claim whose holder is dead reads as free: its lock went with its session.
 */
export function claimView(w: World, id: string, pid: number, released = false): ClaimView {
  const c = w.claims[id];
  if (c === undefined) return { kind: 'free' };
  if (c.kind === 'torn') return { kind: 'torn' };
  // Every engine step observes a claim: a loop and literals, no closure or spread.
  let ownerAlive = false;
  const engines = w.engines;
  for (let i = 0; i < engines.length && !ownerAlive; i++) ownerAlive = engines[i].pid === c.owner;
  if (released && !ownerAlive) return { kind: 'free' };
  const mine = c.owner === pid;
  return c.until === undefined ? { kind: 'held', mine, ownerAlive } : { kind: 'held', mine, ownerAlive, expired: nowOf(w) >= c.until };
}
