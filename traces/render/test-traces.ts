/**
 * Counterexample traces for the renderer tests, made the way a user makes
 * them: `outbox-sim check --rules fresh-cycle --json --out DIR`, in-process.
 * The checker is deterministic, so every test sees the same traces.
 * @internal
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReportedViolation } from '../../sim/check-report.ts';
import { main } from '../../sim/cli/main.ts';
import type { Trace } from '../../sim/trace-format.ts';
import { readTrace } from '../read.ts';
import { statesOf } from './states.ts';

/** A written counterexample: its report line, its path and the trace read back. */
export interface Sample {
  violation: ReportedViolation;
  path: string;
  trace: Trace;
}

/** A temporary directory under the checkout's `.tmp-test/` (git-ignored); remove it with {@link removeDir}. */
export function tempDir(prefix: string): string {
  mkdirSync('.tmp-test', { recursive: true });
  return resolve(mkdtempSync(join('.tmp-test', prefix)));
}

/** Removes a directory made by {@link tempDir}. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The counterexamples of `check --swarm-only --rules fresh-cycle` with `flags` (`--seeds N` or `--seed S`), written into `dir`, by property. */
async function freshCycleCheck(dir: string, flags: string[]): Promise<Map<string, Sample>> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['check', '--swarm-only', '--rules', 'fresh-cycle', ...flags, '--json', '--out', dir], { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  if (code !== 1) throw new Error(`check --rules fresh-cycle exited ${code}, expected 1 (violations): ${err.join(' / ')}`);
  const report = JSON.parse(out.join('\n')) as { violations: ReportedViolation[] };
  return new Map(report.violations.map((v) => [v.property, { violation: v, path: v.path, trace: readTrace(v.path) }]));
}

/**
 * Runs `check --swarm-only --rules fresh-cycle --seeds 300` into `dir` and returns its counterexamples by
 * property (no-silent-loss at seed 2, no-phantom-delivery at 16, honest-park at 89, parked-stays-parked at
 * 196), the phantom delivery taken from seed 88 instead (`--seed 88`): the first that a lost reply makes, the
 * story the renderer tests tell (seed 16's is a dedupe window's, since poison messages moved the draws).
 */
export async function freshCycleSamples(dir: string): Promise<Map<string, Sample>> {
  const samples = await freshCycleCheck(dir, ['--seeds', '300']);
  const phantom = (await freshCycleCheck(dir, ['--seed', '88'])).get('no-phantom-delivery');
  if (phantom !== undefined) samples.set('no-phantom-delivery', phantom);
  return samples;
}

/** The no-phantom-delivery counterexample of fresh-cycle (docs/rules.md, 'fresh-cycle'), which every renderer test uses. */
export async function phantomSample(dir: string): Promise<Sample> {
  const sample = (await freshCycleSamples(dir)).get('no-phantom-delivery');
  if (sample === undefined) throw new Error('check --rules fresh-cycle found no no-phantom-delivery counterexample');
  return sample;
}

/** What a phantom delivery is about: the id, the body reported delivered and the body the broker holds instead. */
export interface PhantomFacts {
  subject: string;
  delivered: string;
  held: string;
}

/** Reads the facts of a phantom delivery from its violation and the broker of its trace's last state. */
export function phantomFacts(sample: Sample): PhantomFacts {
  const { subject, body } = sample.violation;
  const lastState: Record<string, unknown> = statesOf(sample.trace).at(-1) ?? {};
  const broker = lastState.broker as Record<string, { body: string }>;
  return { subject, delivered: body, held: broker[subject].body };
}
