/**
 * The event table holds together: every world event kind has an entry, the
 * swarm's positional lists agree with it, the crash-point matrix has each
 * durable write once, and every kind fires within `check`'s default budget.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { LIFECYCLE_STATES } from '../../../model/lifecycle.ts';
import { BOUNDS_DEFAULT, fixedOptions, runShard, SEEDS_DEFAULT, seedBounds, steppersFor } from '../../check.ts';
import { runSeed } from '../../core/random.ts';
import { outboxSystem } from '../outbox-system.ts';
import { ANSWER_NAMES, swarmOptions } from '../options.ts';
import { crashPoints, LIFECYCLE_STATE_NAMES } from './crash-points.ts';
import type { RuleSet } from '../../../model/rules.ts';
import { ANSWERS_SAME_AS, type Answer } from './broker.ts';
import { TELLS_OK_FALSE_APART } from './test-plans.ts';
import { countedKinds, EVENT_KINDS, GROUPS, kindOf, WORLD_EVENT_KINDS } from './table.ts';

const plan = (skew: boolean, rules: RuleSet = failClosed) => ({
  rules,
  oldRules: skew ? rules : null,
  seedStart: 0,
  seeds: SEEDS_DEFAULT,
  broker: null,
  bounds: BOUNDS_DEFAULT,
});

describe('the event table', () => {
  it('names each kind once, in groups that exist, and covers every world event kind', () => {
    const names = [...EVENT_KINDS.map((k) => k.name), ...EVENT_KINDS.flatMap((k) => (k.variants ?? []).map((v) => v.name))];
    expect(new Set(names).size).toBe(names.length);
    for (const k of EVENT_KINDS) expect(GROUPS.map((g) => g.name)).toContain(k.group);
    expect([...WORLD_EVENT_KINDS].sort()).toEqual(
      ['alter-payload', 'answer', 'crash', 'drain', 'field-corrupt', 'forget', 'land', 'legacy-record', 'long-wait', 'newer-schema', 'poison', 'post-in-transit', 'produce', 'requeue', 'restart', 'restore', 'resubmit', 'scan', 'stall', 'step', 'sweep', 'tear-claim', 'tear-record', 'tick', 'upgrade'].sort(),
    );
  });

  it('lists the answers as the Answer list reads them, each knob with a stream of its own, each old trace position once', () => {
    expect(EVENT_KINDS.filter((k) => k.event === 'answer').map((k) => k.name)).toEqual([...ANSWER_NAMES]);
    for (const k of EVENT_KINDS.filter((x) => x.group === 'fault')) expect(k.knob?.stream).toBe(`fault:${k.name}`);
    const v1 = EVENT_KINDS.flatMap((k) => (k.knob?.v1 ? [`${k.knob.v1.list}[${k.knob.v1.index}]`] : []));
    expect(new Set(v1).size).toBe(v1.length);
    const streams = EVENT_KINDS.flatMap((k) => (k.knob ? [k.knob.stream] : []));
    expect(new Set(streams).size).toBe(streams.length);
  });

  it('takes the lifecycle state names from the statechart', () => {
    expect(LIFECYCLE_STATE_NAMES).toEqual([...LIFECYCLE_STATES]);
  });

  it('has each durable write once in the crash-point matrix, one per lifecycle state, and each crash tag once', () => {
    const rows = crashPoints();
    const writes = rows.map((r) => r.write);
    expect(new Set(writes).size).toBe(writes.length);
    expect(rows.map((r) => r.at)).toEqual(LIFECYCLE_STATE_NAMES);
    const tags = rows.flatMap((r) => (r.during === null ? [r.before] : [r.before, r.during]));
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.filter((t) => t === 'crash@idle')).toHaveLength(1);
  });
});

/** An answer the same as another (refuse-ok-false): in a world only where a rule set tells its reply apart (events/broker.ts). */
const sameAs = (name: string): boolean => ANSWERS_SAME_AS.has(name as Answer);

describe(`every kind fires within check's default budget (${SEEDS_DEFAULT} seeds)`, () => {
  it.each([false, true])('old rules beside: %s; every counted kind by its tag (an answer the same as another never, under rules that read the two alike)', (skew) => {
    const shard = runShard(plan(skew), 0, SEEDS_DEFAULT);
    const expected = countedKinds().filter((k) => (skew || !k.needsOldRules) && !sameAs(k.name));
    const silent = expected.filter((k) => (shard.tags[k.counter] ?? 0) === 0).map((k) => k.name);
    expect(silent).toEqual([]);
    expect(countedKinds().filter((k) => sameAs(k.name) && (shard.tags[k.counter] ?? 0) > 0)).toEqual([]);
    // Every crash is filed once in the matrix: its rows add up to the crashes.
    const matrix = crashPoints().reduce((n, r) => n + (shard.tags[r.before] ?? 0) + (r.during === null ? 0 : (shard.tags[r.during] ?? 0)), 0);
    expect(matrix).toBe((shard.tags['fault:crash'] ?? 0) + (shard.tags['fault:crash-in-post'] ?? 0));
  });

  it('an answer the same as another fires where the rule set tells its reply apart', () => {
    const shard = runShard(plan(false, TELLS_OK_FALSE_APART), 0, SEEDS_DEFAULT);
    const silent = countedKinds().filter((k) => sameAs(k.name) && (shard.tags[k.counter] ?? 0) === 0);
    expect([ANSWERS_SAME_AS.size > 0, silent]).toEqual([true, []]);
  });

  it('every kind, also those without a tag of their own, as events of the same runs', () => {
    const seen = new Set<string>();
    const steppers = steppersFor(failClosed, failClosed);
    for (const skew of [false, true]) {
      const fixed = fixedOptions(plan(skew));
      for (let seed = 0; seed < SEEDS_DEFAULT && seen.size < EVENT_KINDS.length; seed++) {
        const options = swarmOptions(seed, fixed);
        const system = outboxSystem(options, { rules: failClosed, ...(skew ? { oldRules: failClosed } : {}) }, steppers);
        for (const s of runSeed(system, seed, seedBounds(BOUNDS_DEFAULT, options)).steps) if (s.event !== null) seen.add(kindOf(s.event).name);
      }
    }
    expect(EVENT_KINDS.map((k) => k.name).filter((n) => !seen.has(n) && !sameAs(n))).toEqual([]);
  });
});
