/**
 * The light streams' text is hashed in two parts (the seed's prefix once per
 * seed, then each stream's name): the streams must draw what a stream hashed
 * from its whole text draws (FNV-1a into mulberry32, written out here).
 */
import { describe, expect, it } from 'vitest';
import { lightHash, lightSeed, lightStream, lightStreamAt } from './chooser.ts';

/** mulberry32 seeded with the FNV-1a hash of `text`, in one piece. */
function wholeText(text: string, draws: number): number[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  let a = h | 0;
  const out: number[] = [];
  for (let n = 0; n < draws; n++) {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out.push(((t ^ (t >>> 14)) >>> 0) / 4294967296);
  }
  return out;
}

const take = (next: () => number, n: number): number[] => Array.from({ length: n }, next);

describe('light streams', () => {
  it('hashed from a per-seed prefix draw as the stream of the whole text', () => {
    for (const seed of [0, 1, 7, 255, 20_000, -3, 2 ** 31 - 1]) {
      const prefix = lightSeed(seed);
      for (const name of ['', 'heal', 'heal:outage', 'fault:crash', 'cover:operator', 'é∂']) {
        const want = wholeText(`${seed}/${name}`, 5);
        const s = lightStream(seed, name);
        expect(take(() => s.next(), 5)).toEqual(want);
        const at = lightStreamAt(lightHash(prefix, name));
        expect(take(() => at.next(), 5)).toEqual(want);
      }
    }
  });

  it('continue a hash over text split anywhere', () => {
    expect(lightHash(lightHash(lightSeed(9), 'heal:'), 'outage')).toBe(lightHash(lightSeed(9), 'heal:outage'));
  });
});
