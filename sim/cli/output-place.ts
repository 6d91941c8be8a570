/**
 * Where a command will write, checked before it runs: a run of minutes that
 * ends in a stack because `--out` names a file, a read-only place or a path
 * under a regular file wastes the run. Each command that writes asks here
 * first; a place that cannot take a file is one line and exit 2 (a
 * {@link UsageError}) before any work starts.
 *
 * The check does what the write will do: it makes the missing folders, then
 * writes a probe under a temporary name, renames it (the atomic write's two
 * steps) and removes it. Folders it made are removed again, so a run that
 * writes nothing leaves nothing behind. Folders are made one level at a time
 * (not `mkdirSync(..., { recursive: true })`, which loops forever under
 * `/proc` on Linux), which also tells which ancestor is in the way.
 * Checks started together on one folder (a CI job checking two rule sets
 * side by side) pull each other's just-made folder away as they clean up:
 * a folder made meanwhile by another is no error, and one removed under
 * the probe is made and probed again (a few times, then it is bad input).
 */
import { mkdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../usage-error.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import type { Io } from './io.ts';

function statOf(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function codeOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : err instanceof Error ? err.message : String(err);
}

/** Why a write failed, in words a user acts on. */
function why(err: unknown): string {
  const code = codeOf(err);
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  if (code === 'EROFS') return 'read-only file system (EROFS)';
  if (code === 'ENOSPC') return 'no space left on the device (ENOSPC)';
  return code;
}

/** A folder (or its parent) was gone a moment after it was there: another check removed the empty folder it made: made again by {@link makeAndProbe}. */
class FolderVanished extends Error {}

/**
 * Makes `dir` and its missing ancestors one level at a time; returns the
 * folders made, deepest last. Throws a {@link UsageError} naming the
 * ancestor that is a file, or why a folder cannot be made; `target` is the
 * path the user gave (the folder itself, or the file to be written in it).
 */
function makeFolders(flag: string, shown: string, dir: string, target: string, retry = false): string[] {
  const missing: string[] = [];
  let at = resolve(dir);
  for (let s = statOf(at); s === null; s = statOf(at)) {
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  const existing = statOf(at);
  if (existing !== null && !existing.isDirectory()) {
    const where = at === resolve(target) ? `${shown} is a file, not a folder` : `${shown} lies under ${at}, which is a file`;
    throw new UsageError(`${flag} ${where}; give a folder (or move that file away)`);
  }
  const made: string[] = [];
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (err) {
      // Another process (a second check started beside this one) made it meanwhile: there, and not ours to remove.
      if (codeOf(err) === 'EEXIST' && statOf(folder)?.isDirectory() === true) continue;
      removeFolders(made);
      // Its parent, there a moment ago, was removed by such a check: made again by makeAndProbe.
      if (retry && codeOf(err) === 'ENOENT') throw new FolderVanished();
      throw new UsageError(`${flag} ${shown}: cannot make folder ${folder}: ${why(err)}; give a place you can write to`);
    }
    made.push(folder);
  }
  return made;
}

/** Removes folders made by {@link makeFolders} (deepest first), if still empty. */
function removeFolders(made: readonly string[]): void {
  for (const folder of [...made].reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      // Something was written there meanwhile: it is no longer only ours.
    }
  }
}

/**
 * How many times a check makes its folders and probes them again when the
 * folder vanished under the probe: a second check started beside this one
 * removes the empty folder it made once its own probe is done.
 */
const PROBE_TRIES = 5;

/** {@link makeFolders} then {@link probe}, again while the folder vanishes in between; the folders made removed again. */
function makeAndProbe(flag: string, shown: string, dir: string, target: string): void {
  for (let attempt = 1; ; attempt++) {
    let made: string[] = [];
    try {
      made = makeFolders(flag, shown, dir, target, attempt < PROBE_TRIES);
      probe(flag, shown, dir, attempt < PROBE_TRIES);
      return;
    } catch (err) {
      if (!(err instanceof FolderVanished)) throw err;
    } finally {
      removeFolders(made);
    }
  }
}

/** Writes a probe file into `dir` the way an atomic write does (temporary name, rename), then removes it. */
function probe(flag: string, shown: string, dir: string, retry: boolean): void {
  const name = join(dir, `.outbox-sim-probe-${process.pid}`);
  const tmp = `${name}.tmp`;
  try {
    writeFileSync(tmp, '', { flag: 'wx' });
    renameSync(tmp, name);
    unlinkSync(name);
  } catch (err) {
    for (const p of [tmp, name]) {
      try {
        unlinkSync(p);
      } catch {
        // Not there: nothing to clean.
      }
    }
    if (retry && codeOf(err) === 'ENOENT' && statOf(dir) === null) throw new FolderVanished();
    throw new UsageError(`${flag} ${shown} cannot be written: ${why(err)}; give a place you can write to`);
  }
}

/** Checks that files can be written atomically into folder `dir` (given by `flag`); throws a one-line {@link UsageError} when not. */
export function checkOutputFolder(flag: string, dir: string): void {
  if (dir.trim() === '') throw new UsageError(`${flag} needs a folder name`);
  makeAndProbe(flag, dir, dir, dir);
}

/** Checks that `file` (given by `flag`) can be written atomically; throws a one-line {@link UsageError} when not. */
export function checkOutputFile(flag: string, file: string): void {
  if (file.trim() === '') throw new UsageError(`${flag} needs a file name`);
  const existing = statOf(file);
  if (existing?.isDirectory() === true) throw new UsageError(`${flag} ${file} is a folder; give a file name`);
  // A write is a rename over the path: it would replace a FIFO, a device (as root, /dev/null itself) or a socket with a plain file.
  if (existing !== null && !existing.isFile()) {
    throw new UsageError(`${flag} ${file} is not a regular file (a FIFO, a device or a socket), which the write would replace; give a regular file's path${flag === '--out' ? ', or leave --out out to print to stdout' : ''}`);
  }
  makeAndProbe(flag, file, dirname(file), file);
}

/**
 * Prints `text` (one document: a rendered trace, an exported statechart),
 * or writes it atomically to `out` and says so on stderr (`wrote …`).
 * A write that fails is a {@link UsageError} (exit 2).
 */
export function emitDocument(text: string, out: string | undefined, io: Io, wrote: string): void {
  if (out === undefined) {
    io.out(text.replace(/\n$/, ''));
    return;
  }
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileAtomic(out, text);
  } catch (err) {
    throw new UsageError(`--out ${out} cannot be written: ${err instanceof Error ? err.message : String(err)}`);
  }
  io.err(`wrote ${wrote} to ${out}`);
}
