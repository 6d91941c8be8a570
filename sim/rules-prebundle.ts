/**
 * A rule file bundled while the command thread starts. A command on a rule
 * file runs on a worker thread (cli/supervisor.ts), which takes about 0.2 s
 * to start and load the CLI, and then bundles the file (rules-bundle.ts:
 * esbuild's process started, the file and its imports compiled), while the
 * process's main thread only waits. So the main thread bundles every rule
 * file the command line names as soon as the thread is started, and the
 * thread, when it comes to bundle one, asks the main thread first
 * (docs/performance.md, 'Checking a rule file of your own').
 *
 * The answer is exact: the main thread answers once per file, at the
 * command's start, with its bundle and the hash of each of the user's files
 * it was made from (the rule file and those it imports), and the thread
 * takes it only when every one of those files holds those bytes still.
 * Otherwise (a file saved in between, one that did not compile, a later
 * bundle of `check --watch`) the thread bundles the file itself, reporting
 * any error as it always did.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { isRuleFileName } from './rule-file-names.ts';

/** What the thread asks: the bundle of `path`. */
interface BundleAsk {
  ask: number;
  path: string;
}

/** A bundle made on the main thread: its URL, and the user's files it was made from with the hash of each as bundled. */
interface Made {
  url: string;
  inputs: readonly string[];
  hashes: readonly string[];
}

/** What the main thread answers: its bundle, or null (bundle it yourself). */
interface BundleAnswer {
  ask: number;
  bundle: Made | null;
}

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The rule files named on a command line: arguments that end as a rule file does (rule-file-names.ts) and are files. */
export function ruleFilesIn(argv: readonly string[]): string[] {
  const out = new Set<string>();
  for (const arg of argv) {
    const value = arg.startsWith('--') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (!isRuleFileName(value)) continue;
    const path = resolve(value);
    if (existsSync(path) && statSync(path).isFile()) out.add(path);
  }
  return [...out];
}

/**
 * On the main thread: bundles each of `paths` and answers the thread's asks
 * on the returned port (to be handed to the thread); `made` settles once
 * every bundle is made or has failed. Its own port never keeps the process
 * alive.
 */
export function bundlesForThread(paths: readonly string[]): { port: MessagePort; made: Promise<void> } {
  const { port1, port2 } = new MessageChannel();
  const made = new Map<string, Promise<Made | null>>();
  for (const path of paths) made.set(path, makeBundle(path));
  port1.on('message', (m: BundleAsk) => {
    const once = made.get(m.path) ?? Promise.resolve(null);
    // A later ask of the same file is a re-bundle (a save seen by check --watch): the thread's own.
    made.delete(m.path);
    void once.then((b) => port1.postMessage({ ask: m.ask, bundle: b } satisfies BundleAnswer));
  });
  port1.unref();
  return { port: port2, made: Promise.all(made.values()).then(() => undefined) };
}

async function makeBundle(path: string): Promise<Made | null> {
  try {
    const source = readFileSync(path);
    const { bundleHere, lastInputsOf } = await import('./rules-bundle.ts');
    const url = await bundleHere(path, source);
    const inputs = lastInputsOf(path);
    // The rule file as bundled; each file it imports as read just after (see `sameFiles`).
    return { url, inputs, hashes: inputs.map((f) => (f === path ? sha(source) : sha(readFileSync(f)))) };
  } catch {
    // The thread bundles it itself, and says what is wrong.
    return null;
  }
}

/** On the command thread: the port the main thread answers on (none when not supervised). */
let port: MessagePort | null = null;
let asks = 0;
const waiting = new Map<number, (b: BundleAnswer['bundle']) => void>();

/** Makes the command thread ask the main thread for bundles on `p` (given in the thread's data). */
export function askBundlesOn(p: MessagePort): void {
  port = p;
  p.on('message', (m: BundleAnswer) => {
    waiting.get(m.ask)?.(m.bundle);
    waiting.delete(m.ask);
  });
  p.unref();
}

/** Whether each of `files` holds the bytes hashed as `hashes` (`source` being the rule file's as the thread read it). */
function sameFiles(path: string, source: Uint8Array, files: readonly string[], hashes: readonly string[]): boolean {
  try {
    return files.every((f, i) => (f === path ? sha(source) : sha(readFileSync(f))) === hashes[i]);
  } catch {
    return false;
  }
}

/**
 * The bundle the main thread made of `path` as the command started, when
 * it made one and the file (whose content the thread read as `source`) and
 * every file it imports hold the bytes it was made from; else null.
 */
export async function bundleMadeBeside(path: string, source: Uint8Array): Promise<{ url: string; inputs: readonly string[] } | null> {
  const p = port;
  if (p === null) return null;
  const ask = ++asks;
  const answer = await new Promise<BundleAnswer['bundle']>((done) => {
    waiting.set(ask, done);
    // Held while an answer is awaited: an unreferenced port alone would let the thread's loop end.
    p.ref();
    p.postMessage({ ask, path } satisfies BundleAsk);
  });
  if (waiting.size === 0) p.unref();
  if (answer === null || !existsSync(fileURLToPath(answer.url)) || !sameFiles(path, source, answer.inputs, answer.hashes)) return null;
  return { url: answer.url, inputs: answer.inputs };
}
