/**
 * The bench's section on `check --watch` (issue 23: answers where users
 * wait, on every edit of a rule file): one watching process, as a user
 * starts it, and saves of its rule file alternating between a clean rule
 * set and a flawed one; beside it, in the same rounds, a fresh `check`
 * process of each version. Timed: from the save (the file written) to the
 * first `found after` line of a flawed version and to the end of its
 * report, against the same from the start of a fresh process. The watch
 * sees a save within two polls (sim/cli/rerun-on-save.ts), which the times
 * from the save include. Then saves made during a run: a clean version,
 * and a flawed one while the clean one's check runs, which that save stops.
 * Wall-clock time is read here, for reporting only.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FOUND_LINE, timeToLine } from './first-answers.ts';
import { sectionLog } from './section-log.ts';

/** The heading of this section: `npm run bench -- --only watch` replaces the section under it in BENCHMARKS.md. */
export const WATCH_HEADING = '## Re-checking a rule file on every save (`check --watch`)';

/** Saves timed per version (clean, flawed), alternated. */
const SAVES = 4;

/** fail-closed by another name. */
const CLEAN = `import { extendRules, failClosed } from 'outbox-sim';
export default extendRules(failClosed, { name: 'watched', summary: 'fail-closed by another name' });
`;
/** The catalog's fresh-cycle flaw written as a user's rule file: a parked id admits a new body as a fresh cycle. */
const FLAWED = `import { admitFreshCycleWhen, extendRules, failClosed } from 'outbox-sim';
export default extendRules(failClosed, { name: 'watched', summary: 'a parked id admits a new body', admit: admitFreshCycleWhen(failClosed, (r) => r.status === 'PARKED') });
`;

/** The line `check --watch` writes once a run is reported (sim/cli/rerun-on-save.ts). */
const WATCHING = /^watching /;

/** The line `check --watch` writes when a save stopped the run under way. */
const STALE = /changed during the run: it stopped there/;

/** Saves during a run, and how long after the clean save the flawed one comes (the warm main job takes about 1.6 s). */
const MID_RUN_SAVES = 4;
const MID_RUN_AFTER_MS = 400;

/** Lines of a running process, both streams, each with the time it arrived. */
class Lines {
  private readonly seen: { at: number; line: string }[] = [];
  private wake: () => void = () => undefined;
  /** The process's exit code once it has ended: a line awaited after that never comes. */
  private ended: number | null | undefined = undefined;
  constructor(child: ChildProcessWithoutNullStreams, private readonly now: () => number) {
    child.on('close', (code) => {
      this.ended = code;
      this.wake();
    });
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const whole = (partial + chunk).split('\n');
        partial = whole.pop() ?? '';
        for (const line of whole) this.seen.push({ at: this.now(), line });
        this.wake();
      });
    }
  }
  /** The arrival time of the first line from index `from` on that matches; waits for it. */
  async next(pattern: RegExp, from: number): Promise<{ at: number; index: number }> {
    for (;;) {
      const index = this.seen.findIndex((l, i) => i >= from && pattern.test(l.line));
      if (index >= 0) return { at: this.seen[index].at, index };
      if (this.ended !== undefined) throw new Error(`bench: the watch ended (exit ${String(this.ended)}) before a line matching ${String(pattern)}; its last lines: ${this.seen.slice(-3).map((l) => l.line).join(' | ')}`);
      await new Promise<void>((r) => (this.wake = r));
    }
  }
  /** The arrival time of the first line in [from, to) that matches, or null. */
  between(pattern: RegExp, from: number, to: number): number | null {
    for (let i = from; i < to; i++) if (pattern.test(this.seen[i].line)) return this.seen[i].at;
    return null;
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;

/** The section's lines (markdown), measured now. */
export async function watchSection(now: () => number): Promise<string[]> {
  const { lines, log } = sectionLog();
  const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-bench-watch-'));
  const file = join(dir, 'rules.ts');
  const out = join(dir, 'traces');
  log(WATCH_HEADING);
  log('');
  log(`Load average when this section started: ${loadavg()[0].toFixed(1)} (${cpus().length} cores). One \`outbox-sim check --rules rules.ts --watch\` process (the main job: the small worlds and 5,000 seeds), its rule file saved ${SAVES * 2} times, alternating between fail-closed by another name (clean) and the catalog's fresh-cycle flaw written as a rule file (flawed); after each save, in the same round, a fresh \`outbox-sim check --rules rules.ts\` process of the same version. Seconds are wall seconds: for the watch from the save (the file written; the watch looks every 0.1 s and waits one look more for the content to settle), for a fresh process from its start.`);
  log('');
  writeFileSync(file, CLEAN);
  const start = now();
  const child = spawn(process.execPath, ['bin/outbox-sim.mjs', 'check', '--rules', file, '--watch', '--out', out], { stdio: ['pipe', 'pipe', 'pipe'] });
  const seen = new Lines(child, now);
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const first = await seen.next(WATCHING, 0);
  const firstReport = first.at - start;
  const rows: { flawed: boolean; foundWatch: number | null; doneWatch: number; foundFresh: number | null; doneFresh: number }[] = [];
  let from = first.index + 1;
  for (let i = 0; i < SAVES * 2; i++) {
    const flawed = i % 2 === 0;
    const saved = now();
    writeFileSync(file, flawed ? FLAWED : CLEAN);
    const done = await seen.next(WATCHING, from);
    const found = seen.between(FOUND_LINE, from, done.index);
    from = done.index + 1;
    const fresh = await timeToLine(process.execPath, ['bin/outbox-sim.mjs', 'check', '--rules', file, '--out', out], flawed ? FOUND_LINE : null, now);
    rows.push({ flawed, foundWatch: found === null ? null : found - saved, doneWatch: done.at - saved, foundFresh: fresh.lineSeconds, doneFresh: fresh.exitSeconds });
  }
  // Saves during a run: a clean version starts a check, and a flawed one saved while it runs stops it.
  const midRun: { found: number | null; done: number; stopped: boolean }[] = [];
  for (let i = 0; i < MID_RUN_SAVES; i++) {
    writeFileSync(file, `${CLEAN}// mid-run round ${i}\n`);
    await new Promise((r) => setTimeout(r, MID_RUN_AFTER_MS));
    const saved = now();
    writeFileSync(file, `${FLAWED}// mid-run round ${i}\n`);
    const done = await seen.next(WATCHING, from);
    const found = seen.between(FOUND_LINE, from, done.index);
    midRun.push({ found: found === null ? null : found - saved, done: done.at - saved, stopped: seen.between(STALE, from, done.index) !== null });
    from = done.index + 1;
  }
  child.kill('SIGINT');
  const code = await exited;
  rmSync(dir, { recursive: true, force: true });
  log(`The watch's first report, from its start: ${firstReport.toFixed(2)} s. Ctrl-C (SIGINT) after the last save: exit ${String(code)}.`);
  log('');
  log('| save | version | watch: s to the first violation line | watch: s to the report | fresh process: s to the first violation line | fresh process: s to its exit |');
  log('| ---: | --- | ---: | ---: | ---: | ---: |');
  rows.forEach((r, i) => log(`| ${i + 1} | ${r.flawed ? 'flawed' : 'clean'} | ${r.foundWatch === null ? (r.flawed ? 'none' : '') : `**${r.foundWatch.toFixed(2)}**`} | **${r.doneWatch.toFixed(2)}** | ${r.foundFresh === null ? (r.flawed ? 'none' : '') : r.foundFresh.toFixed(2)} | ${r.doneFresh.toFixed(2)} |`));
  log('');
  const flawedRows = rows.filter((r) => r.flawed);
  const foundWatch = flawedRows.map((r) => r.foundWatch ?? Infinity);
  const foundFresh = flawedRows.map((r) => r.foundFresh ?? Infinity);
  const ratios = rows.map((r) => r.doneWatch / r.doneFresh);
  log(`Medians: the first violation line ${median(foundWatch).toFixed(2)} s after a save (${range(foundWatch)}) against ${median(foundFresh).toFixed(2)} s from a fresh command (${range(foundFresh)}); the whole report ${median(rows.map((r) => r.doneWatch)).toFixed(2)} s after a save (${range(rows.map((r) => r.doneWatch))}) against ${median(rows.map((r) => r.doneFresh)).toFixed(2)} s to a fresh process's exit; watch / fresh per save, side by side: median ${median(ratios).toFixed(2)} (${range(ratios)}).`);
  log('');
  log(`Saves during a run, in the same watch: a clean version saved, then ${(MID_RUN_AFTER_MS / 1000).toFixed(1)} s later (while its check runs) the flawed one, which stops that check (sim/cli/rerun-on-save.ts) and is checked at once. Seconds from the flawed save. Before, the flawed version waited for the clean one's whole check (the clean rows above) to end first.`);
  log('');
  log('| round | the clean check stopped | s to the first violation line | s to the report |');
  log('| ---: | --- | ---: | ---: |');
  midRun.forEach((r, i) => log(`| ${i + 1} | ${r.stopped ? 'yes' : 'no (it had ended)'} | ${r.found === null ? 'none' : `**${r.found.toFixed(2)}**`} | ${r.done.toFixed(2)} |`));
  log('');
  const midFound = midRun.map((r) => r.found ?? Infinity);
  const cleanDone = rows.filter((r) => !r.flawed).map((r) => r.doneWatch);
  log(`Median: the first violation line ${median(midFound).toFixed(2)} s after a save made during a run (${range(midFound)}), against ${median(foundWatch).toFixed(2)} s after a save made while the watch waits (above); waiting for the clean check to end would have added what was left of it (its whole run took ${median(cleanDone).toFixed(2)} s, median of the clean rows above, of which ${(MID_RUN_AFTER_MS / 1000).toFixed(1)} s had passed).`);
  log('');
  log(`Load average when this section ended: ${loadavg()[0].toFixed(1)}.`);
  log('');
  return lines;
}
