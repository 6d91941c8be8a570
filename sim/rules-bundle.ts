/**
 * A user's rule file made loadable from wherever it sits: esbuild bundles it
 * (its own imports included) into one ES module in a cache folder, and that
 * module is imported. Node alone would load the file by the rules of the
 * folder it is in (CommonJS unless a package.json there says "type":
 * "module", and no `outbox-sim` to import outside this checkout); a bundle is
 * ESM whatever the file's syntax (.ts, .mts, .cts, .js, .mjs, .cjs; `import`
 * or `require`), and its `outbox-sim` imports are bound to the outbox-sim that
 * is running (see {@link apiShim}) rather than to a second copy found on disk.
 *
 * The bundle is named by the hash of its text and written atomically (a
 * temporary name per thread, then a rename), so a worker thread, or a second
 * process, that bundles the same file finds the same module. A compile error
 * is reported as file:line:column and the compiler's message.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Loader, Message, Plugin } from 'esbuild';
import * as api from '../model/index.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { findPackage } from './package-version.ts';
import { bundleMadeBeside } from './rules-prebundle.ts';

/** The checkout, or the installed package, this module runs from (its cache folder holds the bundles). */
function checkoutRoot(): string {
  return resolve(findPackage(import.meta.url).root);
}

/** Compiler loader per file extension; any other extension is read as TypeScript. */
const LOADERS: Record<string, Loader> = { '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.jsx': 'jsx', '.tsx': 'tsx' };

/** Where a bundle finds this process's `outbox-sim` (per thread: each thread has its own globals and modules). */
const API_KEY = 'outbox-sim/running-api';
const SHIM = 'outbox-sim-api';

/** Publishes this thread's `outbox-sim` API for the bundles it imports. */
function publishApi(): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for(API_KEY)] = api;
}

/**
 * The module a bundle gets for `import ... from 'outbox-sim'` (or a
 * `require` of it): the exports of the outbox-sim running this thread,
 * taken from a global at import time, so the rule set uses the very modules
 * the checker does (one `failClosed`, one record schema) whichever
 * environment runs it (tsx, a bundled worker thread, a test runner).
 * An import of a name outbox-sim does not export fails at compile time.
 */
function apiShim(): string {
  const names = Object.keys(api).sort();
  return `const api = globalThis[Symbol.for(${JSON.stringify(API_KEY)})];\nexport const { ${names.join(', ')} } = api;\n`;
}

/** `outbox-sim` resolves to {@link apiShim}; a subpath is not exported (package.json `exports` has only the root). */
function runningOutboxSim(): Plugin {
  return {
    name: 'running-outbox-sim',
    setup(build) {
      build.onResolve({ filter: /^outbox-sim(\/.*)?$/ }, (args) => {
        if (args.path !== 'outbox-sim') return { errors: [{ text: `'${args.path}' is not exported by outbox-sim (import from 'outbox-sim')` }] };
        return { path: 'outbox-sim', namespace: SHIM };
      });
      build.onLoad({ filter: /.*/, namespace: SHIM }, () => ({ contents: apiShim(), loader: 'js' }));
    },
  };
}

/**
 * A rule file's path as recorded and shown: relative to the folder the
 * command runs in, with `/` separators and a leading `./`, so that a trace's
 * replay command works from there, and on another machine.
 */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  if (isAbsolute(rel)) return rel;
  const posix = rel.split(sep).join('/');
  return posix.startsWith('../') ? posix : `./${posix}`;
}

/** Thrown for a rule file the compiler rejects; its message is `file:line:column: message`. */
export class RuleCompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuleCompileError';
  }
}

/** One compiler message as `file:line:column: text` (the file as {@link shownPath} shows it; columns from 1, as editors count). */
export function whereAndWhat(m: Pick<Message, 'text' | 'location'>): string {
  const at = m.location === null ? '' : `${shownPath(resolve(m.location.file))}:${m.location.line}:${m.location.column + 1}: `;
  // The API module's inner name (namespace:path) read as the package the user imported.
  return `${at}${m.text.split(`${SHIM}:outbox-sim`).join('outbox-sim')}`;
}

function compileError(err: unknown): Error {
  const errors = (err as { errors?: Message[] }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return err instanceof Error ? err : new Error(String(err));
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''})` : '';
  return new RuleCompileError(`${whereAndWhat(errors[0])}${more}`);
}

/** Where bundles go: the checkout's cache folder, or the system's temporary folder when that cannot be written. */
function cacheDirs(): string[] {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return [join(checkoutRoot(), 'node_modules', '.cache', 'outbox-sim', 'rules'), join(tmpdir(), `outbox-sim-rules-${uid}`)];
}

/** Bundles kept in a cache folder; older ones (by when they were written) are removed, so edits do not pile up. */
const KEEP = 32;

/**
 * Beyond the newest {@link KEEP}, a bundle is removed only once it has gone
 * unwritten this long. The folder is shared by every process of the
 * checkout: with the newest 32 alone, other commands bundling files of
 * their own (a test run, a reviewer's batch) removed a running check's
 * bundle, and the check ended with exit 2 when a thread or a copy imported
 * it minutes later.
 */
export const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

/** The bundles of `dir` that pruning removes at `now`: beyond the newest {@link KEEP}, and unwritten for {@link PRUNE_AFTER_MS}. */
export function prunable(bundles: readonly { f: string; at: number }[], now: number): string[] {
  return [...bundles]
    .sort((a, b) => b.at - a.at)
    .slice(KEEP)
    .filter((b) => now - b.at > PRUNE_AFTER_MS)
    .map((b) => b.f);
}

/** Prunes `dir` after `written` was written there: its stamp is the time now, as the file system tells it (no clock is read here). */
function prune(dir: string, written: string): void {
  const bundles = readdirSync(dir)
    .filter((f) => f.startsWith('rules-') && f.endsWith('.mjs'))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }));
  for (const f of prunable(bundles, statSync(written).mtimeMs)) rmSync(join(dir, f), { force: true });
}

/** Writes `text` as a content-named bundle in the first cache folder that takes it; returns its path. */
function store(text: string): string {
  const name = `rules-${createHash('sha256').update(text).digest('hex').slice(0, 20)}.mjs`;
  let last: unknown;
  for (const dir of cacheDirs()) {
    const file = join(dir, name);
    try {
      // Written again when it is there too (the same text: the file system stamps it the newest), so that a bundle a
      // running command's threads still import is not among the oldest that `prune` removes.
      const known = existsSync(file);
      mkdirSync(dir, { recursive: true });
      // Written whole under a temporary name, then renamed: a reader sees all of it or nothing.
      writeFileAtomic(file, text);
      // Only a new bundle can take the folder past what it keeps.
      if (!known) prune(dir, file);
      return file;
    } catch (err) {
      last = err;
    }
  }
  throw new Error(`no cache folder for the rule file's bundle could be written (${last instanceof Error ? last.message : String(last)})`);
}

/**
 * Bundles a rule file whose content is `source` (the bytes whose hash the
 * trace records, so the code that runs is the code that was hashed) and
 * returns the file URL of the bundle to import. The compiler is given the
 * file's absolute path (its messages are shown relative, by
 * {@link whereAndWhat}; a relative name here put a wrong folder into the
 * source map when the working folder was two levels deep).
 */
export async function bundleRuleFile(path: string, source: Uint8Array): Promise<string> {
  // On a supervised command's thread, the process's main thread may have bundled these bytes already (rules-prebundle.ts).
  const beside = await bundleMadeBeside(path, source);
  if (beside !== null) {
    publishApi();
    lastInputs.set(path, beside.inputs);
    return beside.url;
  }
  return bundleHere(path, source);
}

/** {@link bundleRuleFile} on this thread, whatever was bundled beside it. */
export async function bundleHere(path: string, source: Uint8Array): Promise<string> {
  const { build } = await import('esbuild');
  const fileUrl = pathToFileURL(path).href;
  let text: string;
  let inputs: string[];
  try {
    const out = await build({
      stdin: { contents: source, resolveDir: dirname(path), sourcefile: path, loader: LOADERS[extname(path)] ?? 'ts' },
      absWorkingDir: process.cwd(),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      // A stack through the user's code names their file and line (tsx, which runs the CLI, turns source maps on).
      // Sources are written from the root with a file: root, so they hold wherever the bundle is stored.
      sourcemap: 'inline',
      sourcesContent: false,
      outfile: resolve('/', 'rules.mjs'),
      sourceRoot: pathToFileURL(resolve('/')).href,
      plugins: [runningOutboxSim()],
      // The files it read, for `check --watch` (sim/cli/rerun-on-save.ts) to watch.
      metafile: true,
      // A bundled `require` (CommonJS syntax, or a CommonJS package) resolves from the user's file, as it would have there.
      banner: { js: `import { createRequire as __outboxSimRequire } from 'node:module'; const require = __outboxSimRequire(${JSON.stringify(fileUrl)});` },
    });
    text = out.outputFiles[0].text;
    inputs = localInputs(path, Object.keys(out.metafile?.inputs ?? {}));
  } catch (err) {
    throw compileError(err);
  }
  publishApi();
  lastInputs.set(path, inputs);
  return pathToFileURL(store(text)).href;
}

/**
 * By rule file (absolute path), the files of the user's own code its last
 * bundle made in this thread was made from: the file and every file of
 * theirs it imports (packages under node_modules left out), absolute.
 */
const lastInputs = new Map<string, readonly string[]>();

/**
 * The user's files rule file `path` was last bundled from in this thread
 * (see {@link lastInputs}); just the file when it never compiled here. A
 * file that stops compiling keeps the inputs of its last good bundle, so a
 * watch (sim/cli/rerun-on-save.ts) still sees a fix made in an import.
 */
export function lastInputsOf(path: string): readonly string[] {
  return lastInputs.get(path) ?? [path];
}

/** The rule file and the metafile's inputs that are files of the user's (esbuild names them from the working folder; the entry is stdin). */
function localInputs(path: string, inputs: readonly string[]): string[] {
  const files = new Set<string>([path]);
  for (const input of inputs) {
    if (input.startsWith('<') || input.includes(':')) continue;
    const file = resolve(process.cwd(), input);
    if (file.split(sep).includes('node_modules') || !existsSync(file)) continue;
    files.add(file);
  }
  return [...files];
}

/**
 * The URL of a bundle this command made before (a check's threads import
 * the bundle the command loaded: see `loadPinned` in rules-loader.ts), made
 * ready to import, or null when it is no longer there.
 */
export function storedBundle(url: string): string | null {
  if (!existsSync(fileURLToPath(url))) return null;
  publishApi();
  return url;
}
