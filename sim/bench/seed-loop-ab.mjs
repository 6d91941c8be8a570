#!/usr/bin/env node
// Side-by-side timing of `check`'s seed loop in two checkouts of this
// repository (say, the main branch and a branch that changes the world or
// the runner), which the in-process bench (check-speed.ts) cannot do: it
// times two runners over the same, today's, world. Each checkout's seed
// loop (check.ts's runShard over `check --rules fail-closed`'s seeds) is
// bundled by esbuild, and the two bundles run alternately, each in a
// process of its own, timed in CPU seconds of that process (steadier than
// wall time on a shared machine); the best of each is compared.
//
//   node sim/bench/seed-loop-ab.mjs <checkout A> <checkout B> [seeds] [rounds]
//
// Wall-clock and CPU time are read here, for reporting only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [a, b, seedsArg = '20000', roundsArg = '3'] = process.argv.slice(2);
if (a === undefined || b === undefined) {
  process.stderr.write('usage: node sim/bench/seed-loop-ab.mjs <checkout A> <checkout B> [seeds] [rounds]\n');
  process.exit(2);
}
const seeds = Number(seedsArg);
const rounds = Number(roundsArg);
// Run from a checkout (npm's scripts run from its root): its esbuild bundles both.
const here = process.cwd();
const esbuild = join(here, 'node_modules', '.bin', 'esbuild');
const dir = mkdtempSync(join(tmpdir(), 'seed-loop-ab-'));

/** A bundle of one checkout's seed loop: it prints its steps and CPU seconds as JSON. */
function bundle(root, name) {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(
    entry,
    `import { failClosed } from '${resolve(root)}/model/catalog/index.ts';
import { BOUNDS_DEFAULT, runShard } from '${resolve(root)}/sim/check.ts';
const n = Number(process.argv[2]);
const plan = { rules: failClosed, oldRules: null, seedStart: 1, seeds: n, broker: null, bounds: BOUNDS_DEFAULT };
runShard(plan, 1, 1001);
const t = process.cpuUsage();
const r = runShard(plan, 1, n + 1);
const u = process.cpuUsage(t);
process.stdout.write(JSON.stringify({ steps: r.steps, seconds: (u.user + u.system) / 1e6 }));
`,
  );
  const out = join(dir, `${name}.mjs`);
  const p = spawnSync(esbuild, [entry, '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`, '--log-level=warning', "--banner:js=import { createRequire } from 'module'; const require = createRequire(import.meta.url);"], { encoding: 'utf8' });
  if (p.status !== 0) throw new Error(`esbuild failed for ${root}: ${p.stderr}`);
  return out;
}

const sides = [
  { label: a, file: bundle(a, 'a'), runs: [] },
  { label: b, file: bundle(b, 'b'), runs: [] },
];
for (let r = 0; r < rounds; r++) {
  for (const side of sides) {
    const p = spawnSync(process.execPath, [side.file, String(seeds)], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`${side.label}: ${p.stderr}`);
    side.runs.push(JSON.parse(p.stdout));
  }
}
rmSync(dir, { recursive: true, force: true });
const [one, two] = sides;
if (one.runs[0].steps !== two.runs[0].steps) throw new Error(`the checkouts simulated different steps (${one.runs[0].steps} against ${two.runs[0].steps})`);
const best = (s) => Math.min(...s.runs.map((x) => x.seconds));
const fmt = (n) => Math.round(n).toLocaleString('en-US');
process.stdout.write(`${fmt(seeds)} seeds of check --rules fail-closed (${fmt(one.runs[0].steps)} steps), ${rounds} alternated rounds, CPU seconds of each process\n`);
for (const s of sides) process.stdout.write(`${s.label}: best ${best(s).toFixed(2)} s, ${fmt(one.runs[0].steps / best(s))} steps/s (rounds ${s.runs.map((x) => x.seconds.toFixed(2)).join(', ')})\n`);
process.stdout.write(`ratio (A best / B best): ${(best(one) / best(two)).toFixed(2)}x; per round ${one.runs.map((x, i) => (x.seconds / two.runs[i].seconds).toFixed(2) + 'x').join(', ')}\n`);
