/**
 * Bodies of other shapes (body-shape.ts, docs/protocol.md 'Body shapes'): the swarm's draw leaves every
 * other seed as it was, the shapes are what they say, and the two flawed rule files written against
 * them are found in the seeds the default check runs, and only because of the shape: the same seed's
 * world with one-letter bodies is clean. fail-closed and the sound preview variant are clean there.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../model/catalog/index.ts';
import type { RuleSet } from '../../model/rules.ts';
import largeBodyFreshCycle from '../../properties/rule-api/large-body-fresh-cycle.ts';
import presendPreview from '../../properties/rule-api/presend-preview.ts';
import presendStripsAstral from '../../properties/rule-api/presend-strips-astral.ts';
import { runSeedFast } from '../core/fast-run.ts';
import { BOUNDS_DEFAULT, seedBounds, steppersFor } from '../check.ts';
import { bodyShapeDrawn, DIGEST_TWIN_HEX, DIGEST_TWINS, isWorldBodyShape, parseBodyShape, shapedBody } from './body-shape.ts';
import { digestOf } from '../../model/schema.ts';
import { swarmOptions, type WorldOptions } from './options.ts';
import { bodyName } from './world.ts';
import { outboxSystem } from './outbox-system.ts';

function run(rules: RuleSet, options: WorldOptions, seed: number) {
  return runSeedFast(outboxSystem(options, { rules }, steppersFor(rules, null)), seed, seedBounds(BOUNDS_DEFAULT, options));
}

/** The first seed from 1 whose run under `rules` violates a property, and that violation. */
function firstFound(rules: RuleSet, upTo: number): { seed: number; property: string } | null {
  for (let seed = 1; seed <= upTo; seed++) {
    const v = run(rules, swarmOptions(seed, {}), seed).violation;
    if (v !== null) return { seed, property: v.property };
  }
  return null;
}

describe('body shapes', () => {
  it('are drawn in about one seed in eight, each shape alike, a large body 2^k + 1 characters', () => {
    const counts: Record<string, number> = {};
    for (let seed = 1; seed <= 4000; seed++) {
      const s = swarmOptions(seed, {}).bodyShape;
      const name = s === undefined ? 'none' : (parseBodyShape(s)?.name ?? 'bad');
      counts[name] = (counts[name] ?? 0) + 1;
      if (s !== undefined) expect(isWorldBodyShape(s), s).toBe(true);
      if (s?.startsWith('large:') === true) expect(Math.log2(Number(s.slice(6)) - 1) % 1).toBe(0);
    }
    expect(counts.none / 4000).toBeGreaterThan(0.85);
    expect(counts.none / 4000).toBeLessThan(0.9);
    for (const name of ['astral', 'combining', 'control', 'large']) expect(counts[name], name).toBeGreaterThan(90);
    expect(counts.bad).toBeUndefined();
  });

  it('keep each body its leading letter, and are what they say', () => {
    expect(shapedBody('A', undefined)).toBe('A');
    expect(shapedBody('B', 'astral')).toMatch(/^B[\u{10000}-\u{10FFFF}]+$/u);
    const combining = shapedBody('C', 'combining');
    expect(combining.normalize('NFC')).not.toBe(combining);
    expect(combining.normalize('NFD')).not.toBe(combining);
    const control = shapedBody('D', 'control');
    for (const ch of ['"', '\\', '\n', '\r\n', '\n\r', '\u0000', '<']) expect(control).toContain(ch);
    expect(control.trimEnd()).not.toBe(control);
    const large = shapedBody('E', 'large:262145');
    expect(large.length).toBe(262_145);
    expect(large[0]).toBe('E');
    // Made once: every state shares it.
    expect(shapedBody('E', 'large:262145')).toBe(large);
  });

  it('of two bodies alike give an id\'s first two bodies forms equal once folded, distinct as written, and are never drawn', () => {
    const fold: Record<string, (b: string) => string> = { case: (b) => b.toLowerCase(), accent: (b) => b.normalize('NFC'), space: (b) => b.trimEnd(), crlf: (b) => b.replaceAll('\r\n', '\n') };
    for (const shape of ['case', 'accent', 'space', 'crlf']) {
      const [first, second, third] = [0, 1, 2].map((k) => bodyName(1, k, 3, false, shape));
      expect([first === second, fold[shape](first) === fold[shape](second)], shape).toEqual([false, true]);
      // Both forms of the id's first letter; the third body is its own letter.
      expect([first[0].toUpperCase(), second[0].toUpperCase(), third], shape).toEqual(['D', 'D', 'F']);
      expect(isWorldBodyShape(shape)).toBe(true);
    }
    for (let seed = 1; seed <= 2000; seed++) expect(['case', 'accent', 'space', 'crlf', 'digest']).not.toContain(bodyShapeDrawn(seed));
  });

  it('of two bodies whose digests begin alike give an id a letter and its twin: their digests share the first 6 hex digits, not all 8', () => {
    const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let c = 65; c <= 90; c++) {
      const letter = String.fromCharCode(c);
      const twin = DIGEST_TWINS[letter];
      expect([twin.startsWith(letter), [...twin.slice(1)].every((ch) => alphabet.includes(ch))], letter).toEqual([true, true]);
      expect(digestOf(twin).slice(0, DIGEST_TWIN_HEX), letter).toBe(digestOf(letter).slice(0, DIGEST_TWIN_HEX));
      expect(digestOf(twin), letter).not.toBe(digestOf(letter));
    }
    const [first, second, third] = [0, 1, 2].map((k) => bodyName(1, k, 3, false, 'digest'));
    expect([first, second, third]).toEqual(['D', DIGEST_TWINS.D, 'F']);
    expect(isWorldBodyShape('digest')).toBe(true);
  });

  it('fixed by the flag, give every seed the shape; large without a size still draws it', () => {
    for (let seed = 1; seed <= 50; seed++) {
      expect(bodyShapeDrawn(seed, 'astral')).toBe('astral');
      expect(bodyShapeDrawn(seed, 'large:70000')).toBe('large:70000');
      expect(bodyShapeDrawn(seed, 'large')).toMatch(/^large:\d+$/);
    }
    expect(parseBodyShape('large:1')).toBeNull();
    expect(parseBodyShape('emoji')).toBeNull();
  });

  it('find the two flawed rule files in the default seeds, and only with the shape', () => {
    const large = firstFound(largeBodyFreshCycle, 400);
    expect(large).not.toBeNull();
    const astral = firstFound(presendStripsAstral, 400);
    expect(astral).toEqual({ seed: 47, property: 'delivered-as-written' });
    for (const [rules, found] of [[largeBodyFreshCycle, large], [presendStripsAstral, astral]] as const) {
      if (found === null) continue;
      const o = swarmOptions(found.seed, {});
      expect(o.bodyShape, rules.name).toBeDefined();
      // The same seed's world with one-letter bodies: no violation.
      expect(run(rules, { ...o, bodyShape: undefined }, found.seed).violation, rules.name).toBeNull();
    }
  });

  it('leave fail-closed and the sound preview clean in every shaped seed of the first 800', () => {
    for (let seed = 1; seed <= 800; seed++) {
      const o = swarmOptions(seed, {});
      if (o.bodyShape === undefined) continue;
      for (const rules of [failClosed, presendPreview]) expect(run(rules, o, seed).violation, `${rules.name} seed ${seed} (${o.bodyShape})`).toBeNull();
    }
  });
});
