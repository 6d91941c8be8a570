/**
 * The scale-out recipes of docs/scale-out.md work as written: the GitHub
 * Actions matrix and the Kubernetes Indexed Job are parsed from their YAML
 * files, and their own commands are run here, shard by shard and then the
 * merge, with only the seeds made small (and, for Kubernetes, the shared
 * volume a temporary folder). The merged report must be the report of one
 * unsharded run of the same seeds.
 *
 * `npx outbox-sim` in a command runs this checkout's CLI (a shim on PATH,
 * so nothing is fetched from a registry). GitHub's `${{ ... }}` expressions
 * are filled in as the runner would; artifacts are copied between the jobs'
 * separate work folders as upload-artifact and download-artifact would.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { main } from '../sim/cli/main.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RECIPES = join(ROOT, 'docs', 'scale-out');
/** The only value changed from the files: a few seeds instead of a CI-sized run. */
const SEEDS = '60';

const tmp = mkdtempSync(join(tmpdir(), 'outbox-sim-scale-out-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder whose `npx` runs this checkout's CLI for `npx outbox-sim ...` and refuses anything else. */
function npxShim(): string {
  const dir = join(tmp, 'bin');
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, 'npx');
  writeFileSync(shim, `#!/usr/bin/env bash\nif [ "$1" = outbox-sim ]; then shift; exec node ${JSON.stringify(join(ROOT, 'bin', 'outbox-sim.mjs'))} "$@"; fi\necho "npx $1: not in this test" >&2\nexit 127\n`);
  chmodSync(shim, 0o755);
  return dir;
}

/** Runs a shell script as a CI step or a container does (`bash -e` for GitHub, the script's own `bash -c` for Kubernetes); returns its exit code. */
function runScript(script: string, cwd: string, env: Record<string, string>, shell: string[] = ['-e', '-c']): number {
  mkdirSync(cwd, { recursive: true });
  try {
    execFileSync('bash', [...shell, script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env, PATH: `${npxShim()}:${process.env.PATH ?? ''}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    return 0;
  } catch (err) {
    const e = err as { status?: number; stderr?: Buffer };
    if (e.status === undefined) throw err;
    // The reason a step failed, for the assertion that follows.
    if (e.status !== 0 && e.status !== 1) process.stderr.write(e.stderr?.toString() ?? '');
    return e.status;
  }
}

/** The report of one unsharded check of the same seeds, as `--json` prints it. */
async function singleRun(rules: string): Promise<Record<string, unknown>> {
  const out: string[] = [];
  const code = await main(['check', '--swarm-only', '--rules', rules, '--seeds', SEEDS, '--json', '--out', join(tmp, 'single-found')], { out: (l) => out.push(l), err: () => undefined, tty: false });
  expect(code).toBe(0);
  return JSON.parse(out.join('\n')) as Record<string, unknown>;
}

/** What two runs of the same seeds share: everything but the wall-clock time. */
function comparable(report: Record<string, unknown>): Record<string, unknown> {
  const { seconds: _seconds, ...rest } = report;
  return rest;
}

/**
 * A merged report is one unsharded run's of its seeds (`--swarm-only`) and
 * says that the small worlds were not run, with the command that runs them
 * (before, it said nothing of them: a blind review took it for the verdict of a whole check).
 */
function swarmOfMerged(merged: Record<string, unknown>, rules: string): Record<string, unknown> {
  const { smallWorldsNotRun, ...rest } = merged;
  expect(smallWorldsNotRun).toEqual({ command: `npx outbox-sim check --rules ${rules} --small-worlds-only` });
  return comparable(rest);
}

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { needs?: string; if?: string; strategy?: { 'fail-fast'?: boolean; matrix: { shard: number[] } }; steps: Step[] }>;
}

/** Fills in the `${{ ... }}` expressions the runner would; any other is a mistake in the file. */
function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`workflow expression \${{ ${name} }} is not one the test knows`);
    return v;
  });
}

describe('the GitHub Actions matrix (docs/scale-out/github-actions.yml)', () => {
  const workflow = parse(readFileSync(join(RECIPES, 'github-actions.yml'), 'utf8')) as Workflow;
  const check = workflow.jobs.check;
  const merge = workflow.jobs.merge;
  const shards = check.strategy?.matrix.shard ?? [];

  it('is a matrix of shards 1..N, each uploading its shard file, and a merge job after all of them', () => {
    expect(shards.length).toBeGreaterThan(1);
    expect(shards).toEqual(shards.map((_, i) => i + 1));
    expect(check.strategy?.['fail-fast']).toBe(false);
    const runs = check.steps.filter((s) => s.run?.includes('outbox-sim check'));
    expect(runs).toHaveLength(1);
    expect(runs[0].run).toContain('--shard "${{ matrix.shard }}/${{ strategy.job-total }}"');
    expect(check.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@') && s.if === 'always()')).toBe(true);
    expect(merge.needs).toBe('check');
    expect(merge.if).toBe('always()');
    expect(merge.steps.some((s) => s.uses?.startsWith('actions/download-artifact@') && s.with?.['merge-multiple'] === true)).toBe(true);
    expect(merge.steps.some((s) => s.run?.includes('npx outbox-sim merge'))).toBe(true);
  });

  it("its commands, run here (shards, artifacts, merge), give the report of one unsharded run", async () => {
    expect(workflow.env.SEEDS).toMatch(/^\d+$/);
    const env: Record<string, string> = { ...workflow.env, SEEDS };
    const artifacts = join(tmp, 'gha-artifacts');
    for (const shard of shards) {
      const work = join(tmp, `gha-check-${shard}`);
      const values = { 'matrix.shard': String(shard), 'strategy.job-total': String(shards.length) };
      for (const step of check.steps) {
        if (step.run !== undefined && step.run.includes('outbox-sim')) expect(runScript(expand(step.run, values), work, env)).toBe(0);
        if (step.uses?.startsWith('actions/upload-artifact@')) {
          const name = expand(String(step.with?.name), values);
          const path = expand(String(step.with?.path), values);
          mkdirSync(join(artifacts, name), { recursive: true });
          copyFileSync(join(work, path), join(artifacts, name, basename(path)));
        }
      }
    }
    const work = join(tmp, 'gha-merge');
    for (const step of merge.steps) {
      if (step.uses?.startsWith('actions/download-artifact@')) {
        const pattern = new RegExp(`^${String(step.with?.pattern).replace(/\*/g, '.*')}$`);
        const into = join(work, String(step.with?.path));
        mkdirSync(into, { recursive: true });
        for (const name of readdirSync(artifacts).filter((n) => pattern.test(n))) {
          for (const file of readdirSync(join(artifacts, name))) copyFileSync(join(artifacts, name, file), join(into, file));
        }
        expect(readdirSync(into)).toHaveLength(shards.length);
      }
      if (step.run !== undefined && step.run.includes('outbox-sim')) expect(runScript(expand(step.run, {}), work, env)).toBe(0);
    }
    const merged = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as Record<string, unknown>;
    expect(merged.runs).toBe(Number(SEEDS));
    expect(swarmOfMerged(merged, env.RULES)).toEqual(comparable(await singleRun(env.RULES)));
  }, 180_000);

  it('runs the small worlds, which shards do not, in a job of their own with the same rules', () => {
    const job = workflow.jobs['small-worlds'];
    const runs = job.steps.filter((s) => s.run?.includes('outbox-sim'));
    expect(runs.map((s) => s.run)).toEqual([expect.stringContaining('npx outbox-sim check --rules "$RULES" --small-worlds-only') as string]);
    expect(runScript(expand(String(runs[0].run), {}), join(tmp, 'gha-small-worlds'), { ...workflow.env })).toBe(0);
  }, 180_000);
});

interface K8sContainer {
  env: { name: string; value: string }[];
  command: string[];
  args: string[];
  volumeMounts: { name: string; mountPath: string }[];
}
interface K8sJob {
  kind: string;
  metadata: { name: string };
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    template: { spec: { containers: K8sContainer[]; volumes: { name: string; persistentVolumeClaim: { claimName: string } }[] } };
  };
}

const docsOf = (file: string) => parseAllDocuments(readFileSync(join(RECIPES, file), 'utf8')).map((d) => d.toJS() as K8sJob);
const envOf = (c: K8sContainer): Record<string, string> => Object.fromEntries(c.env.map((e) => [e.name, e.value]));

describe('the Kubernetes Indexed Job (docs/scale-out/k8s-indexed-job.yaml, k8s-merge-job.yaml)', () => {
  const docs = docsOf('k8s-indexed-job.yaml');
  const job = docs.find((d) => d.kind === 'Job');
  const claim = docs.find((d) => d.kind === 'PersistentVolumeClaim');
  const mergeJob = docsOf('k8s-merge-job.yaml').find((d) => d.kind === 'Job');
  const container = job?.spec.template.spec.containers[0];
  const mergeContainer = mergeJob?.spec.template.spec.containers[0];

  it('runs SHARDS indexed pods that take their shard from JOB_COMPLETION_INDEX, on the volume the merge reads', () => {
    if (job === undefined || container === undefined || mergeJob === undefined || mergeContainer === undefined || claim === undefined) throw new Error('a Job or the volume claim is missing');
    expect(job.spec.completionMode).toBe('Indexed');
    const env = envOf(container);
    expect(job.spec.completions).toBe(Number(env.SHARDS));
    expect(job.spec.parallelism).toBe(Number(env.SHARDS));
    expect(container.args.join('\n')).toContain('JOB_COMPLETION_INDEX + 1');
    // Both Jobs mount the same claim where SHARD_DIR points.
    for (const [j, c] of [[job, container], [mergeJob, mergeContainer]] as const) {
      expect(j.spec.template.spec.volumes.map((v) => v.persistentVolumeClaim.claimName)).toEqual([claim.metadata.name]);
      expect(c.volumeMounts.map((m) => m.mountPath)).toEqual([envOf(c).SHARD_DIR]);
    }
  });

  it("its pods' commands for indices 0..N-1, then the merge Job's, give the report of one unsharded run", async () => {
    if (job === undefined || container === undefined || mergeContainer === undefined) throw new Error('a Job is missing');
    const volume = join(tmp, 'k8s-volume');
    const env: Record<string, string> = { ...envOf(container), SEEDS, SHARD_DIR: volume };
    const shell = container.command.slice(1);
    expect(container.command[0]).toBe('bash');
    for (let index = 0; index < (job.spec.completions ?? 0); index++) {
      expect(runScript(container.args.join('\n'), join(tmp, `k8s-pod-${index}`), { ...env, JOB_COMPLETION_INDEX: String(index) }, shell)).toBe(0);
    }
    expect(runScript(mergeContainer.args.join('\n'), join(tmp, 'k8s-merge'), { ...envOf(mergeContainer), SHARD_DIR: volume }, mergeContainer.command.slice(1))).toBe(0);
    expect(existsSync(join(volume, 'report.json'))).toBe(true);
    const merged = JSON.parse(readFileSync(join(volume, 'report.json'), 'utf8')) as Record<string, unknown>;
    expect(merged.runs).toBe(Number(SEEDS));
    expect(swarmOfMerged(merged, env.RULES)).toEqual(comparable(await singleRun(env.RULES)));
    // The merge Job runs the small worlds too, under the shards' rules.
    expect(mergeContainer.args.join('\n')).toContain('npx outbox-sim check --rules "$RULES" --small-worlds-only');
    expect(envOf(mergeContainer).RULES).toBe(env.RULES);
  }, 180_000);
});

describe('the recipes are checked against a wrong shard number (so the tests above can fail)', () => {
  it('a 0-based shard, as JOB_COMPLETION_INDEX is, is refused by check: exit 2', () => {
    expect(runScript(`npx outbox-sim check --seeds ${SEEDS} --shard 0/4 --shard-out s.json`, join(tmp, 'wrong'), {})).toBe(2);
  });
});
