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

/**
 * Makes `dir` and its missing ancestors one level at a time; returns the
 * folders made, deepest last. Throws a {@link UsageError} naming the
 * ancestor that is a file, or why a folder cannot be made; `target` is the
 * path the user gave (the folder itself, or the file to be written in it).
 */
function makeFolders(flag: string, shown: string, dir: string, target: string): string[] {
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
      removeFolders(made);
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

/** Writes a probe file into `dir` the way an atomic write does (temporary name, rename), then removes it. */
function probe(flag: string, shown: string, dir: string): void {
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
    throw new UsageError(`${flag} ${shown} cannot be written: ${why(err)}; give a place you can write to`);
  }
}

/** Checks that files can be written atomically into folder `dir` (given by `flag`); throws a one-line {@link UsageError} when not. */
export function checkOutputFolder(flag: string, dir: string): void {
  if (dir.trim() === '') throw new UsageError(`${flag} needs a folder name`);
  const made = makeFolders(flag, dir, dir, dir);
  try {
    probe(flag, dir, dir);
  } finally {
    removeFolders(made);
  }
}

/** Checks that `file` (given by `flag`) can be written atomically; throws a one-line {@link UsageError} when not. */
export function checkOutputFile(flag: string, file: string): void {
  if (file.trim() === '') throw new UsageError(`${flag} needs a file name`);
  if (statOf(file)?.isDirectory() === true) throw new UsageError(`${flag} ${file} is a folder; give a file name`);
  const dir = dirname(file);
  const made = makeFolders(flag, file, dir, file);
  try {
    probe(flag, file, dir);
  } finally {
    removeFolders(made);
  }
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
