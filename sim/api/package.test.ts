/**
 * The package as it would be published (issue 22 items 1 and 2): what
 * `npm pack` puts in the tarball (compiled JavaScript with declarations,
 * the bin, the docs; no tests, nothing untracked), and the example project
 * (examples/vitest-check) installed from that tarball in a scratch folder:
 * its vitest test passes through outbox-sim/vitest, the API imports under
 * plain node, and the installed bin runs. Dependencies come from npm's cache
 * (warm after `npm ci`) or the registry.
 *
 * One file for both, so that the build they may need (when dist/ is missing
 * or older than a source: bin/compiled.mjs) runs once, not in two test files
 * at the same time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'outbox-sim-pack-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface PackedFile {
  path: string;
}

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
}

// Builds dist/ unless it is there and newer than every source (bin/compiled.mjs).
beforeAll(() => void execFileSync(process.execPath, ['bin/build.mjs', '--if-stale'], { cwd: root, stdio: 'ignore' }), 120_000);

describe('which CLI the bin runs (bin/compiled.mjs)', () => {
  /** compiledCli(dir) of a folder laid out as a checkout or an install, through node (the bin's module is not the tests' to import). */
  const compiledIn = (dir: string): string =>
    execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(new URL('../../bin/compiled.mjs', import.meta.url).href)}); console.log(String(m.compiledCli(${JSON.stringify(dir)})));`], { encoding: 'utf8' }).trim();
  const file = (dir: string, path: string, at: number): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), '');
    utimesSync(join(dir, path), at, at);
  };

  it('in a checkout, dist/ only while it is newer than every source; in an install (no sources), dist/', () => {
    const checkout = join(scratch, 'checkout');
    file(checkout, 'dist/cli/main.js', 2000);
    file(checkout, 'sim/cli/main.ts', 1000);
    file(checkout, 'model/rules.ts', 1000);
    expect(compiledIn(checkout)).toBe('null');
    file(checkout, 'dist/build-stamp', 2000);
    expect(compiledIn(checkout)).toMatch(/dist\/cli\/$/);
    // A test edited after the build does not make the build stale; a source does.
    file(checkout, 'model/rules.test.ts', 3000);
    expect(compiledIn(checkout)).toMatch(/dist\/cli\/$/);
    // A source deep in a folder counts as one at its top.
    file(checkout, 'sim/outbox/packed/deep.ts', 3000);
    expect(compiledIn(checkout)).toBe('null');
    file(checkout, 'sim/outbox/packed/deep.ts', 1000);
    expect(compiledIn(checkout)).toMatch(/dist\/cli\/$/);
    file(checkout, 'model/rules.ts', 3000);
    expect(compiledIn(checkout)).toBe('null');
    const installed = join(scratch, 'installed');
    file(installed, 'dist/cli/main.js', 1000);
    expect(compiledIn(installed)).toMatch(/dist\/cli\/$/);
  });
});

describe('npm pack', () => {
  it('ships the compiled package and the docs: no test, nothing git does not track', () => {
    const [packed] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], root)) as { files: PackedFile[]; entryCount: number }[];
    const paths = packed.files.map((f) => f.path);
    const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n'));
    // A compiled module stands for its tracked source: dist/sim/x.js and dist/sim/x.d.ts for sim/x.ts.
    const sourceOf = (p: string) => (p.startsWith('dist/') ? p.slice('dist/'.length).replace(/(\.d\.ts|\.js)$/, '.ts') : p);
    // The CLI's bundle (bin/cli-bundle.mjs): its entries, and the chunks of code they share.
    const bundle = (p: string) => /^dist\/cli\/(main|io|supervisor|command-thread|check-worker-entry|chunk-[A-Z0-9]+)\.js$/.test(p);
    expect(paths.filter((p) => !bundle(p) && !tracked.has(sourceOf(p)))).toEqual([]);
    expect(['main', 'io', 'supervisor', 'command-thread', 'check-worker-entry'].map((e) => `dist/cli/${e}.js`).filter((p) => !paths.includes(p))).toEqual([]);
    expect(paths.filter((p) => /\.test\.|(^|\/)(properties|examples|traces\/found)\//.test(p))).toEqual([]);
    // What package.json's exports and bin name is in the tarball.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>>; bin: Record<string, string> };
    const targets = [...Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e))), ...Object.values(pkg.bin)];
    expect(targets.map((t) => t.replace(/^\.\//, '')).filter((t) => !paths.includes(t))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
    // What the shipped docs point at (a blind review: README's traces/README.md and traces/corpus, scale-out.md's recipes) is shipped.
    const corpus = readdirSync(join(root, 'traces', 'corpus')).filter((f) => f.endsWith('.trace.jsonl')).map((f) => `traces/corpus/${f}`);
    expect(corpus.length).toBeGreaterThan(0);
    const recipes = readdirSync(join(root, 'docs', 'scale-out')).map((f) => `docs/scale-out/${f}`);
    expect(['traces/README.md', ...corpus, ...recipes].filter((p) => !paths.includes(p))).toEqual([]);
    expect(packed.entryCount).toBe(paths.length);
  });
});

describe('examples/vitest-check, installed from the tarball', () => {
  const project = join(scratch, 'project');
  beforeAll(() => {
    const tarball = join(scratch, npm(['pack', '--ignore-scripts', '--pack-destination', scratch], root).trim().split('\n').pop() ?? '');
    cpSync(join(root, 'examples', 'vitest-check'), project, { recursive: true, filter: (p) => !/node_modules|traces/.test(p) });
    const pkgPath = join(project, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { devDependencies: Record<string, string> };
    pkg.devDependencies['outbox-sim'] = `file:${tarball}`;
    writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], project);
  }, 120_000);

  it('passes its vitest test through outbox-sim/vitest', () => {
    const r = spawnSync(join(project, 'node_modules', '.bin', 'vitest'), ['run'], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    expect(r.stdout + r.stderr).toMatch(/Tests\s+4 passed \(4\)/);
    expect(r.status).toBe(0);
  });

  it('type-checks against the declarations the package ships (its tsconfig.json, strict)', () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('imports the API under plain node, and its bin runs compiled', () => {
    const line = JSON.parse(execFileSync(process.execPath, ['smoke.mjs'], { cwd: project, encoding: 'utf8' })) as { catalog: string[]; rules: string; runs: number; ok: boolean };
    expect(line).toMatchObject({ rules: 'fail-closed', runs: 50, ok: true });
    expect(line.catalog).toContain('fail-closed');
    expect(existsSync(join(project, 'node_modules', 'outbox-sim', 'sim'))).toBe(false);
    const rules = execFileSync(join(project, 'node_modules', '.bin', 'outbox-sim'), ['rules', '--json'], { cwd: project, encoding: 'utf8' });
    expect((JSON.parse(rules) as { name: string }[]).map((r) => r.name)).toContain('fail-closed');
  });
});
