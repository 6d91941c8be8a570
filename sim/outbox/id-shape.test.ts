/**
 * Ids of other shapes (id-shape.ts, docs/protocol.md 'Id shapes'): each shape's two ids are distinct
 * strings that one fold makes one, the swarm draws a shape in one seed in eight of those with two ids and
 * never beside ids named alike, the draw moves nothing else, a world of a shape holds exactly its two ids,
 * and every place that prints an id tells the two apart.
 */
import { describe, expect, it } from 'vitest';
import { sizesOf } from '../cli/explore-command.ts';
import { UsageError } from '../usage-error.ts';
import { exploreOptions, EXPLORE_DEFAULTS } from './explore-options.ts';
import { ID_SHAPE_NAMES, idPair, idShapeDrawn, idShapeWords, idText, isIdShape } from './id-shape.ts';
import { swarmOptions } from './options.ts';
import { worldIdNames } from './world.ts';

describe('id shapes', () => {
  it('are pairs of distinct strings that one fold makes one, and that no other fold of the three does', () => {
    const folds: Record<string, (s: string) => string> = { case: (s) => s.toLowerCase(), accent: (s) => s.normalize('NFC'), space: (s) => s.trimEnd() };
    for (const shape of ID_SHAPE_NAMES) {
      const [x, y] = idPair(shape);
      expect(x === y, shape).toBe(false);
      expect(x < y, `${shape}: in code-unit order`).toBe(true);
      for (const [name, fold] of Object.entries(folds)) expect([shape, name, fold(x) === fold(y)]).toEqual([shape, name, name === shape]);
    }
    // The accent pair reads the same on the page and differs in the store.
    const [nfd, nfc] = idPair('accent');
    expect([nfd.normalize('NFC'), nfd.length, nfc.length]).toEqual([nfc, nfc.length + 1, nfc.length]);
    expect([isIdShape('case'), isIdShape('Case'), isIdShape('large')]).toEqual([true, false, false]);
  });

  it('print every id unambiguously: plain ones as they are, a trailing space and NFD visible', () => {
    expect([idText('a'), idText('Order-17'), idText('eu-west-1.tenant-42.order-000017')]).toEqual(['a', 'Order-17', 'eu-west-1.tenant-42.order-000017']);
    expect(idText('order-17 ')).toBe('"order-17 "');
    expect([idText('cafe\u0301-17'), idText('caf\u00e9-17')]).toEqual(['"cafe\\u{301}-17"', '"caf\\u{E9}-17"']);
    // A key of many characters is printed whole, not cut to a digest as a long body is.
    expect(idText(`${'k'.repeat(100)} `)).toBe(`"${'k'.repeat(100)} "`);
    for (const shape of ID_SHAPE_NAMES) {
      const [x, y] = idPair(shape);
      expect(idText(x) === idText(y), shape).toBe(false);
      // Ids of 200 characters are named by their last 12.
      if (shape === 'prefix') expect([x.length, y.length, idShapeWords(shape)]).toEqual([200, 200, `ids "...${x.slice(-12)}" and "...${y.slice(-12)}" of 200 characters differing only in the last`]);
      else expect(idShapeWords(shape)).toContain(`${idText(x)} and ${idText(y)}`);
    }
  });

  it('are drawn in about one seed in eight of those with two ids, never with one id or ids named alike, each shape alike', () => {
    const counts: Record<string, number> = {};
    let two = 0;
    for (let seed = 1; seed <= 8000; seed++) {
      const o = swarmOptions(seed, {});
      if (o.ids < 2 || o.longIds === true) expect(o.idShape, `seed ${seed}`).toBeUndefined();
      if (o.ids < 2) continue;
      two++;
      const name = o.idShape ?? 'none';
      counts[name] = (counts[name] ?? 0) + 1;
    }
    const share = 1 - counts.none / two;
    expect([share > 0.1 && share < 0.15, share]).toEqual([true, share]);
    for (const name of ID_SHAPE_NAMES) expect(counts[name], name).toBeGreaterThan(100);
  });

  it('move no other draw: a seed given a shape by a flag keeps every other option, and one without a shape keeps its own', () => {
    for (let seed = 1; seed <= 600; seed++) {
      const drawn = swarmOptions(seed, {});
      const fixed = swarmOptions(seed, { idShape: 'space' });
      expect({ ...fixed, idShape: undefined }, `seed ${seed}`).toEqual({ ...drawn, idShape: undefined });
      expect(fixed.idShape).toBe(drawn.ids === 2 && drawn.longIds !== true ? 'space' : undefined);
    }
    // The draw reads its own stream: the same seed draws the same shape, whatever else is fixed.
    for (let seed = 1; seed <= 200; seed++) expect(idShapeDrawn(seed, 2, false)).toBe(idShapeDrawn(seed, 2, false));
  });

  it('name a world of a shape by its two ids exactly (a trace header holds a shape to 2 ids: traces/render/shaped-ids.test.ts)', () => {
    expect(worldIdNames(exploreOptions({ ...EXPLORE_DEFAULTS, ids: 2, idShape: 'space' }))).toEqual(['order-17', 'order-17 ']);
    expect(worldIdNames(exploreOptions({ ...EXPLORE_DEFAULTS, ids: 2 }))).toEqual(['a', 'b']);
  });

  it("take --id-shape in explore and diff: 2 ids with it, a bad value, --long-ids or --ids 1 beside it a usage error", () => {
    expect([sizesOf({ idShape: 'case' }, false).ids, sizesOf({ idShape: 'case' }, false).idShape]).toEqual([2, 'case']);
    expect(() => sizesOf({ idShape: 'upper' }, false)).toThrow(new UsageError('--id-shape "upper": give case, accent, space, prefix or collide:N:M (ids order-N and order-M)'));
    // A pair the id probe found (a hash bucket's): two plain ids; one id twice is no pair.
    expect(sizesOf({ idShape: 'collide:138:220' }, false).idShape).toBe('collide:138:220');
    expect(() => sizesOf({ idShape: 'collide:7:7' }, false)).toThrow(UsageError);
    expect(() => sizesOf({ idShape: 'case', longIds: true }, false)).toThrow(UsageError);
    expect(() => sizesOf({ idShape: 'case', ids: '1' }, false)).toThrow(UsageError);
  });
});
