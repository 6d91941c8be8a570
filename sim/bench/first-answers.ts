/**
 * The bench's section on the waits a user sees at the prompt (issue 23):
 * the start-up of `outbox-sim rules`, and for each flaw of the catalog the
 * time from the command to the line that reports its first violation
 * (`  found after ...`, printed as soon as it is shrunk and written), for
 * the default check (the small worlds, then the swarm) and for the swarm
 * alone. Each command is a process of its own, started as a user starts it
 * (`node bin/outbox-sim.mjs ...`, the compiled CLI when dist/ is fresh),
 * best of a few runs; the line is timestamped when it reaches this process.
 * Beside each wall time, the CPU seconds the process used in all (to its
 * exit), read from Linux's count of this process's waited-for children:
 * steadier than wall time on a shared machine.
 * Wall-clock time is read here, for reporting only.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATALOG, failClosed } from '../../model/catalog/index.ts';
import { sectionLog } from './section-log.ts';

/** The heading of this section: `npm run bench -- --only first-answers` replaces the section under it in BENCHMARKS.md. */
export const FIRST_ANSWERS_HEADING = '## Start-up and first answers, from the command';

/** Runs of `rules`, and of each check, timed (best of). */
const RULES_RUNS = 5;
const ANSWER_RUNS = 3;

/** The line `check` prints for a violation as soon as it is shrunk and written (sim/cli/check-command.ts). */
export const FOUND_LINE = /^ {2}found after [\d.]+ s: /;

/** One timed process: wall seconds to the first line matching the pattern (null: none came) and to its exit, CPU seconds to its exit (null: not measurable here). */
export interface TimedRun {
  lineSeconds: number | null;
  exitSeconds: number;
  cpuSeconds: number | null;
  line: string | null;
  status: number | null;
}

/** User + system CPU seconds of this process's waited-for children (Linux: /proc/self/stat's cutime and cstime), or null elsewhere. */
export function childrenCpuSeconds(): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces, in parentheses): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100;
  return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
}

/** Starts `command args` and times the first whole stdout line that matches `pattern` (null: none awaited), and its exit. */
export function timeToLine(command: string, args: readonly string[], pattern: RegExp | null, now: () => number): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuSeconds();
    const t = now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let partial = '';
    let lineSeconds: number | null = null;
    let line: string | null = null;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (lineSeconds !== null || pattern === null) return;
      const at = now() - t;
      const whole = (partial + chunk).split('\n');
      partial = whole.pop() ?? '';
      const hit = whole.find((l) => pattern.test(l));
      if (hit !== undefined) {
        lineSeconds = at;
        line = hit;
      }
    });
    child.on('error', reject);
    child.on('close', (status) => {
      const exitSeconds = now() - t;
      const cpuAfter = childrenCpuSeconds();
      resolve({ lineSeconds, exitSeconds, cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, line, status });
    });
  });
}

/** The best of `runs` timed runs: the lowest time to the line awaited (else to the exit), with that run's figures. */
export async function bestOf(runs: number, awaited: boolean, once: () => Promise<TimedRun>): Promise<TimedRun> {
  let best: TimedRun | null = null;
  const key = (r: TimedRun) => (awaited ? (r.lineSeconds ?? Infinity) : r.exitSeconds);
  for (let i = 0; i < runs; i++) {
    const r = await once();
    if (best === null || key(r) < key(best)) best = r;
  }
  if (best === null) throw new Error('bench: bestOf needs at least one run');
  return best;
}

const cli = (args: readonly string[], pattern: RegExp | null, now: () => number) => () => timeToLine(process.execPath, ['bin/outbox-sim.mjs', ...args], pattern, now);

const cpuCell = (r: TimedRun) => (r.cpuSeconds === null ? 'n/a' : r.cpuSeconds.toFixed(2));

/** Where the line says the violation was found: a small world or a seed, and after how long since the check started. */
export function foundWhere(line: string | null): string {
  if (line === null) return 'no violation reported';
  const m = /found after ([\d.]+) s: (\S+) (in small world "[^"]*"|at seed \d+)/.exec(line);
  return m === null ? line.trim() : `${m[2]} ${m[3]} (${m[1]} s after the check started)`;
}

/** The catalog's flaws: every rule set of the catalog but fail-closed. */
const FLAWS = CATALOG.filter((r) => r !== failClosed);

/** The catalog's first flaw: the rule set whose counterexample the start-up table reads back. */
export const CATALOG_FLAW = FLAWS[0].name;

/** Checks {@link CATALOG_FLAW} once (untimed) into `dir` and returns the path of the trace it wrote. */
export function counterexample(dir: string): string {
  const r = spawnSync(process.execPath, ['bin/outbox-sim.mjs', 'check', '--rules', CATALOG_FLAW, '--stop-on-first', '--quiet', '--out', dir], { stdio: 'ignore' });
  const file = r.status === 1 ? readdirSync(dir).find((f) => f.endsWith('.trace.jsonl')) : undefined;
  if (file === undefined) throw new Error(`bench: check --rules ${CATALOG_FLAW} --stop-on-first wrote no trace (exit ${r.status})`);
  return join(dir, file);
}

/** The section's lines (markdown), measured now. */
export async function firstAnswersSection(now: () => number): Promise<string[]> {
  const { lines, log } = sectionLog();
  // What a user runs: the bundle of `npm run build`, rebuilt first if a source is newer (else the bin would run the sources through tsx).
  execFileSync(process.execPath, ['bin/build.mjs', '--if-stale'], { stdio: 'inherit' });
  log(FIRST_ANSWERS_HEADING);
  log('');
  log(`Load average when this section started: ${loadavg()[0].toFixed(1)} (${cpus().length} cores). Each command a process of its own, as a user starts it (\`node bin/outbox-sim.mjs ...\`, the compiled and bundled CLI of \`npm run build\`), timed from its start; wall seconds are the best of the runs, CPU seconds (user + system, the whole process to its exit) are that run's.`);
  log('');
  const out = mkdtempSync(join(tmpdir(), 'outbox-sim-bench-first-'));
  const node = await bestOf(RULES_RUNS, false, () => timeToLine(process.execPath, ['-e', '0'], null, now));
  const rules = await bestOf(RULES_RUNS, false, cli(['rules'], null, now));
  // The same command through npx, as `npx outbox-sim ...` runs it: npx itself reads the project's tree before it starts the bin (docs/performance.md, 'Start-up').
  const viaNpx = await bestOf(RULES_RUNS, false, () => timeToLine('npx', ['--offline', 'outbox-sim', 'rules'], null, now)).catch(() => null);
  log(`Start-up, best of ${RULES_RUNS}:`);
  log('');
  log('| command | wall s to exit | CPU s |');
  log('| --- | ---: | ---: |');
  log(`| \`node -e 0\` (Node alone, for scale) | ${node.exitSeconds.toFixed(2)} | ${cpuCell(node)} |`);
  log(`| \`outbox-sim rules\` | **${rules.exitSeconds.toFixed(2)}** | ${cpuCell(rules)} |`);
  log(viaNpx === null ? '| `npx outbox-sim rules` | npx not found | n/a |' : `| \`npx outbox-sim rules\` (the same, started through npx) | ${viaNpx.exitSeconds.toFixed(2)} | ${cpuCell(viaNpx)} |`);
  // Reading a trace back, as a user explores one and cites it in a review: a counterexample of the catalog's first flaw.
  const trace = counterexample(join(out, 'trace'));
  for (const args of [['replay', trace], ['show', '--format', 'md', trace]]) {
    const run = await bestOf(RULES_RUNS, false, cli(args, null, now));
    if (run.status !== 0) throw new Error(`bench: outbox-sim ${args.join(' ')} exited ${run.status}`);
    log(`| \`outbox-sim ${args.slice(0, -1).join(' ')} TRACE\` (a counterexample of ${CATALOG_FLAW}) | **${run.exitSeconds.toFixed(2)}** | ${cpuCell(run)} |`);
  }
  log('');
  log(`First violation of each flaw of the catalog: wall seconds from the command to the line \`found after ...\` (best of ${ANSWER_RUNS}), where it was found, and the run's CPU to its exit (\`--stop-on-first\` ends it there):`);
  log('');
  log('| command | **wall s to the violation line** | wall s to exit | CPU s | found |');
  log('| --- | ---: | ---: | ---: | --- |');
  for (const r of FLAWS) {
    for (const swarmOnly of [false, true]) {
      const args = ['check', ...(swarmOnly ? ['--swarm-only'] : []), '--rules', r.name, '--stop-on-first'];
      const run = await bestOf(ANSWER_RUNS, true, cli([...args, '--out', out], FOUND_LINE, now));
      const to = run.lineSeconds === null ? 'none' : `**${run.lineSeconds.toFixed(2)}**`;
      log(`| \`outbox-sim ${args.join(' ')}\` | ${to} | ${run.exitSeconds.toFixed(2)} | ${cpuCell(run)} | ${foundWhere(run.line)} |`);
    }
  }
  log('');
  // A user checks a rule file of their own: the command then runs on a supervised thread, bundles the file and probes it first (docs/performance.md, 'Checking a rule file of your own').
  log(`The same flaws given as a rule file of your own (a \`.ts\` file whose default export is the catalog rule set): the command runs on a watched thread, bundles the file and probes it for state kept between calls before it checks (best of ${ANSWER_RUNS}):`);
  log('');
  log('| command | **wall s to the violation line** | wall s to exit | CPU s | found |');
  log('| --- | ---: | ---: | ---: | --- |');
  for (const r of FLAWS) {
    const file = join(out, `${r.name}.ts`);
    writeFileSync(file, `import { catalogRules } from 'outbox-sim';\nexport default catalogRules(${JSON.stringify(r.name)});\n`);
    const args = ['check', '--rules', file, '--stop-on-first'];
    const run = await bestOf(ANSWER_RUNS, true, cli([...args, '--out', out], FOUND_LINE, now));
    const to = run.lineSeconds === null ? 'none' : `**${run.lineSeconds.toFixed(2)}**`;
    log(`| \`outbox-sim check --rules ./${r.name}.ts --stop-on-first\` | ${to} | ${run.exitSeconds.toFixed(2)} | ${cpuCell(run)} | ${foundWhere(run.line)} |`);
  }
  rmSync(out, { recursive: true, force: true });
  log('');
  log(`Load average when this section ended: ${loadavg()[0].toFixed(1)}. Under load the wall times stretch while the CPU times hold: read the CPU column for what a run costs on an idle core.`);
  log('');
  return lines;
}
