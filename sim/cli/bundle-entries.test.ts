/**
 * A worker thread's file, when the CLI runs compiled, is found beside the
 * module that starts the thread (`new URL('./NAME.js', import.meta.url)`):
 * in the CLI's bundle (dist/cli/) that module is a chunk, so NAME.js must be
 * one of the bundle's entries, or `check --workers N` fails with a module
 * not found in the shipped CLI only (the sources and the tests load the
 * TypeScript and never see it). Every such file a source names is an entry.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The entry names of the bundle's build script (bin/cli-bundle.mjs, read as text: sim/ does not import bin/). */
function bundleEntries(): string[] {
  const text = readFileSync(join('bin', 'cli-bundle.mjs'), 'utf8');
  const body = /export const CLI_ENTRIES = \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s*'?([\w-]+)'?:/gm)].map((m) => m[1]);
}

/** Every non-test TypeScript source under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the CLI bundle', () => {
  it('has an entry for every worker file a compiled module starts from beside itself', () => {
    const named = sources('sim').flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return /import\.meta\.url/.test(text) ? [...text.matchAll(/'\.\/([\w-]+)\.js'/g)].map((m) => m[1]) : [];
    });
    // The check workers' threads at least (they search the small worlds too: sim/workers/check-job.ts).
    expect(named).toEqual(expect.arrayContaining(['check-worker-entry']));
    const entries = bundleEntries();
    expect(entries).toEqual(expect.arrayContaining(['main', 'check-worker-entry']));
    expect(named.filter((n) => !entries.includes(n))).toEqual([]);
  });
});
