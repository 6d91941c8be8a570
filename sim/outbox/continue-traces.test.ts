/**
 * `explore --continue` gives each property violated its own shortest trace,
 * and the trace written for a property records and replays that property's
 * violation. The shortest path to a state that breaks one property may pass
 * a state that breaks another first: the trace of no-phantom-delivery under
 * fresh-cycle-after-definite passes an honest-park violation at step 10, and
 * was once written (and replayed) as that honest-park trace, so a review
 * citing it for no-phantom-delivery cited the wrong counterexample.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-cli.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'continue-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface ExploreJson {
  violations: { property: string; path: string; steps: number }[];
}

describe('explore --continue', () => {
  it("writes each property's trace to that property's violation, and it replays so", async () => {
    const r = await runCli('explore', '--rules', 'fresh-cycle-after-definite', '--continue', '--json', '--out', tmp);
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.out.join('\n')) as ExploreJson).violations;
    expect(found.map((v) => v.property)).toEqual(['honest-park', 'no-phantom-delivery', 'no-silent-loss']);
    expect(new Set(found.map((v) => v.path)).size).toBe(found.length);
    for (const v of found) {
      // The header line, then a line per step (the trace reader lives in traces/, which a test here does not import).
      const lines = readFileSync(v.path, 'utf8').trimEnd().split('\n');
      const header = JSON.parse(lines[0]) as { violation: { property: string } | null };
      expect(header.violation?.property, v.path).toBe(v.property);
      expect(lines.length - 1).toBe(v.steps);
      const replay = await runCli('replay', v.path);
      expect(replay.code, replay.out.join('\n')).toBe(0);
      expect(replay.out.join('\n')).toContain(`ending in ${v.property}`);
    }
  }, 60_000);
});
