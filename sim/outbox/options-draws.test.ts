/**
 * The swarm's per-seed draws, made cheaper (streams hashed from a per-seed
 * prefix, the `swarm` stream drawn without a chooser, the heal menu and the
 * covering rows looked up once), must stay the draws they were: here each
 * seed's options are drawn again the plain way (a stream per text, through a
 * chooser, everything looked up per seed) and compared field by field, also
 * key order (traces print options as they are built).
 */
import { describe, expect, it } from 'vitest';
import { SWARM_BROKER_MODES } from '../../model/broker.ts';
import { lightStream, seededChooser } from '../core/chooser.ts';
import { HEALTHY_ANSWER, type Answer } from './events/broker.ts';
import { EVENT_KINDS, SETTINGS } from './events/table.ts';
import { swarmKnobs, swarmOptions, type FixedOptions, type WorldOptions } from './options.ts';
import { coveringRows } from './swarm-coverage.ts';

/** A seed's options as drawn before the set-up was made cheaper. */
function plainOptions(seed: number, fixed: FixedOptions): WorldOptions {
  const c = seededChooser(seed);
  const pick = (n: number): number => c.int('swarm', n);
  const between = (lo: number, hi: number): number => lo + pick(hi - lo + 1);
  const engines = between(1, 3);
  const ids = between(1, 2);
  const bodiesPerId = between(1, 3);
  const attemptsMax = between(1, 5);
  const broker = SWARM_BROKER_MODES[pick(SWARM_BROKER_MODES.length)];
  const crashesMax = pick(4);
  const corruptionsMax = pick(3);
  const operatorDrawn = pick(4);
  const faultGroupWeight = 1 + pick(4);
  const faultStepsMax = between(20, 120);
  const settings: Record<string, number> = {};
  for (const s of SETTINGS) {
    const stream = lightStream(seed, s.stream);
    settings[s.name] = fixed.settings?.[s.name] ?? s.draw(() => stream.next());
  }
  const weights: Record<string, number> = {};
  for (const k of swarmKnobs()) {
    const stream = lightStream(seed, k.stream);
    weights[k.name] = k.draw === 'base' ? 6 + Math.floor(stream.next() * 6) : Math.floor(stream.next() * 4) === 0 ? 0 : 1 + Math.floor(stream.next() * 4);
  }
  let healAnswer: Answer = HEALTHY_ANSWER;
  if (lightStream(seed, 'heal').next() >= 0.5) {
    let lowest = Infinity;
    for (const k of EVENT_KINDS) {
      if (k.steady !== 'failure') continue;
      const r = lightStream(seed, `heal:${k.name}`).next();
      if (r < lowest) [healAnswer, lowest] = [k.name as Answer, r];
    }
  }
  // A production-sized attempts limit in one seed in eight, from a stream of its own.
  const attempts = lightStream(seed, 'attempts:many');
  const attemptsLimit = attempts.next() < 1 / 8 ? 6 + Math.floor(attempts.next() * 27) : attemptsMax;
  const many = lightStream(seed, 'operator:many');
  const operatorBudget = many.next() < 1 / 8 ? 8 + Math.floor(many.next() * 5) : operatorDrawn;
  let o: WorldOptions = {
    engines: fixed.engines ?? engines,
    ids: fixed.ids ?? ids,
    bodiesPerId: fixed.bodiesPerId ?? bodiesPerId,
    attemptsMax: fixed.attemptsMax ?? attemptsLimit,
    broker: fixed.broker ?? broker,
    skew: fixed.skew ?? false,
    settings,
    ...(fixed.atMostOnce === true ? { atMostOnce: true } : {}),
    // One seed in four of two ids gives both the same bodies, from a stream of its own.
    sameBodies: (fixed.ids ?? ids) >= 2 && lightStream(seed, 'bodies:same').next() < 1 / 4 ? true : undefined,
    // And, from another stream, ids named alike.
    longIds: (fixed.ids ?? ids) >= 2 && lightStream(seed, 'ids:long').next() < 1 / 4 ? true : undefined,
    // And, from another stream, ids of a shape in one seed in eight of two ids: one in six of those without ids named alike.
    idShape: idShapeOf(lightStream(seed, 'ids:shape'), (fixed.ids ?? ids) >= 2 && !(lightStream(seed, 'ids:long').next() < 1 / 4)),
    // And, from another stream, bodies of a shape in one seed in eight.
    bodyShape: shapeOf(lightStream(seed, 'bodies:shape')),
    crashesMax,
    corruptionsMax,
    operatorActionsMax: fixed.operatorActionsMax ?? operatorBudget,
    weights,
    faultGroupWeight,
    healAnswer,
    faultStepsMax,
  };
  const { features, rows } = coveringRows(fixed);
  const row = seed >= 1 && seed <= rows.length ? rows[seed - 1] : undefined;
  if (row !== undefined) features.forEach((f, i) => (o = f.write(o, f.values[row[i]], seed)));
  return o;
}

/** One seed in eight draws a body shape: a name, and for a large body 2^k + 1 characters, k from 10 to 20. */
function shapeOf(s: { next(): number }): string | undefined {
  if (s.next() >= 1 / 8) return undefined;
  const name = ['astral', 'combining', 'control', 'large'][Math.floor(s.next() * 4)];
  return name === 'large' ? `large:${2 ** (10 + Math.floor(s.next() * 11)) + 1}` : name;
}

/** A seed of two ids without ids named alike draws an id shape in one in six (one in eight of all with two ids). */
function idShapeOf(s: { next(): number }, eligible: boolean): string | undefined {
  if (!eligible || s.next() >= 1 / 6) return undefined;
  return ['case', 'accent', 'space', 'prefix'][Math.floor(s.next() * 4)];
}

const FIXED: FixedOptions[] = [{}, { broker: 'log', engines: 2 }, { operatorActionsMax: 0, atMostOnce: true, settings: { [SETTINGS[0].name]: SETTINGS[0].off } }];

describe('swarmOptions draws', () => {
  for (const fixed of FIXED) {
    it(`are the plain draws for seeds 0 to 1,500 and a few far ones (fixed ${JSON.stringify(fixed)})`, () => {
      const seeds = [...Array.from({ length: 1501 }, (_, i) => i), 20_000, 123_457, 2 ** 31 - 1, -5];
      for (const seed of seeds) {
        const fast = swarmOptions(seed, fixed);
        const plain = plainOptions(seed, fixed);
        expect(JSON.stringify(fast), `seed ${seed}`).toBe(JSON.stringify(plain));
      }
    });
  }
});
