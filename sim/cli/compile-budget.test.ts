/**
 * The command-line entry's inlining budget (bin/compile-budget.mjs): `check`
 * runs under a smaller one, other commands under V8's default, and every
 * flag it sets is one this Node's V8 knows (`setFlagsFromString` ignores a
 * flag it does not know, so a misspelt or retired flag would silently cost
 * the main job its budget: the command line refuses one, so it is tried there).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A plain ESM file of the bin, without types: loaded by URL, as the library loads bin/clock.mjs.
const { compileFlags: flagsOf } = (await import(new URL('../../bin/compile-budget.mjs', import.meta.url).href)) as { compileFlags: (argv: readonly string[]) => string[] };

describe('the inlining budget per command', () => {
  it('gives check a smaller inlining budget and leaves the other commands at the default', () => {
    expect(flagsOf(['check'])).toEqual(['--max-inlined-bytecode-size-cumulative=60']);
    expect(flagsOf(['check', '--seeds', '10'])).toEqual(flagsOf(['check']));
    for (const argv of [['explore'], ['rules'], ['replay', 'check'], []]) expect(flagsOf(argv)).toEqual([]);
  });

  it('sets only flags this Node accepts', () => {
    for (const flag of flagsOf(['check'])) {
      const p = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
      expect(p.stderr).toBe('');
      expect(p.status).toBe(0);
    }
    // The probe itself refuses an unknown flag.
    expect(spawnSync(process.execPath, ['--max-inlined-bytecode-size-cumulativ=60', '-e', '0'], { encoding: 'utf8' }).status).not.toBe(0);
  });
});
