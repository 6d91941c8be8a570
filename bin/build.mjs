#!/usr/bin/env node
// Builds dist/ in two parts:
// - the library (package.json's exports): the TypeScript compiler
//   (tsconfig.build.json) writes one .js, .d.ts and source map per source
//   module, with the sources' `.ts` imports rewritten to `.js`
//   (rewriteRelativeImportExtensions); the declarations need tsc anyway;
// - the command line (dist/cli/, what bin/outbox-sim.mjs runs): esbuild
//   bundles it (see cli-bundle.mjs), so that a command starts without Node
//   resolving, reading and compiling two hundred modules one by one.
//
// Who runs it: `prepack` (npm pack and npm publish build what they pack) and
// `pretest` with --if-stale (CI runs `npm ci`, then `npm test`: the tests that
// run the bin get the compiled CLI, and a fresh dist/ is not rebuilt). Not
// `prepare`: npm lists a dependency's `prepare` among the install scripts a
// user has to approve, although it never runs from a registry tarball.
//
// dist/build-stamp is dated when the build started: a source edited during
// or after the build is newer, and bin/ runs the sources (compiled.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { compiledCli } from './compiled.mjs';
import { bundleCli } from './cli-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
if (process.argv.includes('--if-stale') && compiledCli(root) !== null) process.exit(0);
const started = new Date();
// Modules of deleted sources must not linger in the package.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}
mkdirSync(dist, { recursive: true });
try {
  await bundleCli(root, join(dist, 'cli'));
} catch (err) {
  rmSync(dist, { recursive: true, force: true });
  throw err;
}
const stamp = join(dist, 'build-stamp');
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);
