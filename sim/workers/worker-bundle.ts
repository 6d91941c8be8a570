/**
 * The `check` worker thread's code as one JavaScript file, bundled from the
 * TypeScript sources by esbuild (the compiler tsx itself runs) and cached.
 * A thread that loads it starts without tsx: no loader thread, no module
 * resolved and transformed one by one. Measured here: a new thread's first
 * result came 0.07 to 0.09 s after its start, against 0.34 to 0.38 s through
 * tsx, and its fixed cost in CPU (start-up, then its compiler warming up;
 * `npm run bench` measures it) fell from 1.1-1.4 s to 0.75-1.06 s, a cost
 * that every `--workers N` run pays for each thread.
 *
 * The bundle is keyed by the content of every file it was built from, so an
 * edited source is never run stale: the key is checked before each use and a
 * mismatch rebuilds it, and the bundle it replaces is deleted (the cache
 * holds one). A bundle whose inputs changed while it was built is used by
 * no one: the run falls back to tsx and the next run builds it again.
 * A rule set given as a file path is loaded by the worker at run time and
 * needs tsx, so such plans get the tsx entry.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../atomic-write.ts';
import { catalogRules } from '../../model/catalog/index.ts';
import type { PlanSpec } from './check-task.ts';
import { runsCompiled } from '../compiled.ts';

interface Places {
  tsxWorker: string;
  root: string;
  taskModule: string;
  cacheDir: string;
  manifest: string;
}
let places: Places | undefined;

/**
 * Where the worker's files are. Worked out when first needed, not on import:
 * a module that imports this one may run where `import.meta.url` is no file
 * (a test under a browser-like environment).
 */
function where(): Places {
  if (places === undefined) {
    const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
    const cacheDir = join(root, 'node_modules', '.cache', 'outbox-sim');
    places = {
      tsxWorker: fileURLToPath(new URL('./check-worker.mjs', import.meta.url)),
      root,
      taskModule: fileURLToPath(new URL('./thread-task.ts', import.meta.url)),
      cacheDir,
      manifest: join(cacheDir, 'check-worker.json'),
    };
  }
  return places;
}

/** The worker entry that loads the TypeScript sources through tsx. */
export function tsxWorker(): string {
  return where().tsxWorker;
}

/** Changes with the build options below, so that a bundle built otherwise is not reused. */
const BUNDLE_FORMAT = 'esm-node20-3';
/** The bundle's entry, given to esbuild as text; its metafile lists it under this name beside the task module. */
const ENTRY_NAME = 'check-worker-entry.ts';

/** What the cache holds: the bundle's file and the inputs (relative to the project root) its key covers. */
interface Manifest {
  format: string;
  key: string;
  file: string;
  inputs: string[];
}

/** Hash of the inputs' paths and contents; null when one of them is gone. */
export function inputsKey(root: string, inputs: readonly string[]): string | null {
  const hash = createHash('sha256').update(BUNDLE_FORMAT);
  for (const input of inputs) {
    const path = resolve(root, input);
    if (!existsSync(path)) return null;
    hash.update(input).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function readManifest(path: string): Manifest | null {
  if (!existsSync(path)) return null;
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
    if (m.format !== BUNDLE_FORMAT || typeof m.key !== 'string' || typeof m.file !== 'string' || !Array.isArray(m.inputs)) return null;
    return m as Manifest;
  } catch {
    return null;
  }
}

/** The cached bundle when its inputs are unchanged, else null. */
function cachedBundle(): string | null {
  const { cacheDir, manifest, root } = where();
  const m = readManifest(manifest);
  if (m === null) return null;
  const file = join(cacheDir, m.file);
  return existsSync(file) && inputsKey(root, m.inputs) === m.key ? file : null;
}

/** Bundles the worker and records it in the cache; returns its path. */
async function buildBundle(): Promise<string> {
  const { build } = await import('esbuild');
  const { cacheDir, manifest, root, taskModule } = where();
  // The file system's clock marks the build's start: an input changed after it may be
  // in the bundle as it was, so the bundle must not be filed under the input's new content.
  mkdirSync(cacheDir, { recursive: true });
  const marker = join(cacheDir, `build-${process.pid}.start`);
  writeFileSync(marker, '');
  const started = statSync(marker).mtimeMs;
  rmSync(marker, { force: true });
  const out = await build({
    stdin: { contents: `export { threadTask as default } from './${basename(taskModule)}';`, resolveDir: dirname(taskModule), loader: 'ts', sourcefile: ENTRY_NAME },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // The rule-file loader compiles with esbuild, which finds its native binary beside its own package: imported, not bundled.
    external: ['esbuild'],
    // Bundled CommonJS packages call `require` for Node's own modules; an ES module has none.
    banner: { js: "import { createRequire as __outboxSimRequire } from 'node:module'; const require = __outboxSimRequire(import.meta.url);" },
  });
  const inputs = Object.keys(out.metafile.inputs)
    .filter((p) => p !== relative(root, join(dirname(taskModule), ENTRY_NAME)))
    .sort();
  const key = inputsKey(root, inputs);
  if (key === null) throw new Error('an input of the worker bundle vanished while it was built');
  if (inputs.some((p) => statSync(resolve(root, p)).mtimeMs >= started)) throw new Error('an input of the worker bundle changed while it was built');
  const file = `check-worker-${key}.mjs`;
  const replaced = readManifest(manifest);
  writeFileAtomic(join(cacheDir, file), out.outputFiles[0].text);
  writeFileAtomic(manifest, `${JSON.stringify({ format: BUNDLE_FORMAT, key, file, inputs } satisfies Manifest, null, 2)}\n`);
  if (replaced !== null && replaced.file !== file) rmSync(join(cacheDir, replaced.file), { force: true });
  return join(cacheDir, file);
}

/** Whether a plan's worker can run from the bundle: its rule sets come from the catalog. */
export function bundleServes(plan: PlanSpec): boolean {
  return catalogRules(plan.rules) !== undefined && (plan.oldRules === null || catalogRules(plan.oldRules) !== undefined);
}

/**
 * The file a `check` worker thread for `plan` loads: from the compiled
 * package, its compiled entry; from the sources, the bundle (built now
 * if missing or stale), or the tsx entry when the plan names a rule file or
 * the bundle cannot be built here (a read-only install, say); both run the
 * same code, so the results are the same.
 */
export async function checkWorkerFile(plan: PlanSpec): Promise<string> {
  // The compiled package is plain JavaScript already: its threads load it as it is.
  if (runsCompiled(import.meta.url)) return fileURLToPath(new URL('./check-worker-entry.js', import.meta.url));
  if (!bundleServes(plan)) return tsxWorker();
  try {
    return cachedBundle() ?? (await buildBundle());
  } catch {
    return tsxWorker();
  }
}
