/**
 * A trace's rule files as a replay command run from the current folder
 * must name them. A trace records a user's rule file by its path relative
 * to the folder the command that made it ran in, and by its content hash
 * (sim/trace-format.ts); it does not record that folder. `show` run from
 * another folder would print a `--rules` path that names nothing there, so
 * the recorded path is looked for from the folders the trace could have been
 * made in: the current one first (where it was right when the trace was
 * made), then the trace's own folder and each folder above it (a trace is
 * written in, or below, the folder its command ran in). The first file whose
 * content has the recorded hash is the one; none found, the recorded path is
 * kept (replay then says the file does not exist and where it was recorded).
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { shownPath } from '../../sim/rules-bundle.ts';
import { fileHash } from '../../sim/rules-loader.ts';
import type { TraceRules } from '../../sim/trace-format.ts';

/**
 * A rule file is small; the recorded path comes from a trace, which is data
 * from anywhere, so a larger file (or a device, a pipe) is not read.
 */
const RULE_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** Whether `path` is a file of at most {@link RULE_FILE_MAX_BYTES} whose content hashes to `hash`. */
function holds(path: string, hash: string): boolean {
  try {
    const stat = statSync(path);
    return stat.isFile() && stat.size <= RULE_FILE_MAX_BYTES && fileHash(path) === hash;
  } catch {
    return false;
  }
}

/** The folders a trace at `tracePath` could have been made in, most likely first. */
function recordingFolders(tracePath: string): string[] {
  const folders = [process.cwd()];
  for (let dir = dirname(resolve(tracePath)); ; dir = dirname(dir)) {
    if (!folders.includes(dir)) folders.push(dir);
    if (dirname(dir) === dir) return folders;
  }
}

/** One recorded rule set with a user file's path made valid from the current folder, when that file is found. */
function fromHere(recorded: TraceRules, folders: readonly string[]): TraceRules {
  if (recorded.source === 'catalog' || recorded.hash === null || isAbsolute(recorded.source)) return recorded;
  const hash = recorded.hash;
  const found = folders.map((folder) => resolve(folder, recorded.source)).find((path) => holds(path, hash));
  return found === undefined ? recorded : { ...recorded, source: shownPath(found) };
}

/** The rule sets of a trace read from `tracePath`, user files' paths given from the current folder. */
export function rulesFromHere(tracePath: string, recorded: { rules: TraceRules; oldRules: TraceRules | null }): { rules: TraceRules; oldRules: TraceRules | null } {
  const folders = recordingFolders(tracePath);
  return { rules: fromHere(recorded.rules, folders), oldRules: recorded.oldRules === null ? null : fromHere(recorded.oldRules, folders) };
}

/** The recorded user rule files of a trace at `tracePath` that no folder it could have been made in holds with the recorded content hash. */
export function ruleFilesNotFound(tracePath: string, recorded: { rules: TraceRules; oldRules: TraceRules | null }): TraceRules[] {
  const folders = recordingFolders(tracePath);
  return [recorded.rules, recorded.oldRules].filter((r): r is TraceRules => r !== null && r.source !== 'catalog' && r.hash !== null && !isAbsolute(r.source) && fromHere(r, folders) === r);
}
