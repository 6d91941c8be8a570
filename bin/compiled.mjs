// Where the compiled CLI is, when it should run: dist/ built and, in a
// checkout, not older than any source file beside it (bin/build.mjs leaves
// dist/build-stamp, dated when the build started). An edited source makes the bin
// run the sources through tsx until the next build, so a stale dist/ never
// runs. An installed package ships dist/ without the sources: nothing to
// compare, dist/ runs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const SOURCE_DIRS = ['model', 'sim', 'traces'];

/** The newest modification time (ms) of the non-test sources under the checkout's source folders. */
export function newestSource(dir = root) {
  let newest = 0;
  // A walk of its own, by directory entries: readdirSync's `recursive` option took about twice as long
  // in a fresh process (every command pays this walk before it starts; docs/performance.md, 'Start-up').
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const name = entry.name;
      if (entry.isDirectory()) {
        walk(join(folder, name));
        continue;
      }
      if (!(name.endsWith('.ts') || name.endsWith('.mjs')) || name.endsWith('.test.ts')) continue;
      newest = Math.max(newest, statSync(join(folder, name)).mtimeMs);
    }
  };
  for (const top of SOURCE_DIRS) {
    const base = join(dir, top);
    if (existsSync(base)) walk(base);
  }
  return newest;
}

/** The folder URL of the compiled CLI's bundle (dist/cli/: bin/cli-bundle.mjs), or null when the sources should run. */
export function compiledCli(dir = root) {
  if (!existsSync(join(dir, 'dist', 'cli', 'main.js'))) return null;
  if (existsSync(join(dir, 'sim', 'cli', 'main.ts'))) {
    const stamp = join(dir, 'dist', 'build-stamp');
    if (!existsSync(stamp) || newestSource(dir) > statSync(stamp).mtimeMs) return null;
  }
  return new URL('dist/cli/', new URL(`file://${dir.endsWith('/') ? dir : `${dir}/`}`));
}
