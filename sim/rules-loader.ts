/**
 * Resolves a rule set named on the command line: a catalog name, or a path to
 * a user's rule file whose default export is a rule set. A file that fails to
 * load, or exports something else, is a {@link UsageError}.
 *
 * A rule file is code: it is loaded only from a path the user typed, never
 * from a path a trace names (see sim/outbox/from-trace.ts). When the file
 * must be the one a trace recorded, its content hash is checked before any
 * of it runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { CATALOG, catalogRules } from '../model/catalog/index.ts';
import { ruleSetProblem, type RuleSet } from '../model/rules.ts';
import { bundleRuleFile, RuleCompileError, shownPath, storedBundle } from './rules-bundle.ts';
import { isRuleFileName, RULE_FILE_EXTENSIONS_TEXT } from './rule-file-names.ts';
import { UsageError } from './usage-error.ts';
import { watchedLoad } from './rules-guard.ts';
import { IN_PROCESS, ruleValue } from './rule-values.ts';

/** Where a rule set came from, as recorded in a trace header. */
export interface RulesSource {
  name: string;
  /** `catalog`, or the path of the user's file relative to the folder the command ran in. */
  source: string;
  /** sha256 (first 16 hex) of a user file's content; null for the catalog. */
  hash: string | null;
}

/** A loaded rule set and where it came from. */
export interface LoadedRules {
  rules: RuleSet;
  origin: RulesSource;
  /** For a rule file: the code that was loaded, for every thread of the command to load the same (see {@link loadPinned}). */
  pin?: RulePin;
}

/**
 * The exact code a command loaded for a rule file: its content hash and the
 * bundle it imported (the file and every file it imports, as they were:
 * rules-bundle.ts). A check's threads, and its later pieces of work, load
 * the rule set from this, never from the file again: a file saved while a
 * check ran used to be loaded by the pieces after the save, so one run
 * mixed two versions under the first one's hash.
 * See docs/rules.md, 'How a rule file is loaded'.
 */
export interface RulePin {
  hash: string;
  bundle: string;
}

/** Pins by the spec (the path as given) that named each rule file. */
export type RulePins = Readonly<Record<string, RulePin>>;

/** The rule sets a command loaded, by the spec that named each (null: none named, as for old rules not given). */
export type LoadedSpecs = readonly (readonly [string, LoadedRules | null])[];

/** The pins of rule sets loaded by spec (catalog names and values have none). */
export function pinsOf(loaded: LoadedSpecs): RulePins {
  const pins: Record<string, RulePin> = {};
  for (const [spec, l] of loaded) if (l?.pin !== undefined) pins[spec] = l.pin;
  return pins;
}

/** Whether a rule spec names a file rather than a catalog entry. */
export function looksLikePath(spec: string): boolean {
  return spec.includes('/') || spec.includes(sep) || isRuleFileName(spec);
}

function hashOf(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

/** Content hash of a rule file, as recorded in traces. */
export function fileHash(path: string): string {
  return hashOf(readFileSync(path));
}

/** `module.exports = { default: rules, __esModule: true }`, as compiled TypeScript writes `export default` in CommonJS. */
function unwrapInterop(exported: unknown): unknown {
  if (typeof exported === 'object' && exported !== null && (exported as { __esModule?: unknown }).__esModule === true && 'default' in exported) {
    return (exported as { default: unknown }).default;
  }
  return exported;
}

/** The default export of the bundle at `url` (a rule file's: rules-bundle.ts). */
async function importBundle(url: string, shown: string): Promise<unknown> {
  let mod: { default?: unknown };
  try {
    mod = (await import(url)) as { default?: unknown };
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UsageError(`rule file ${shown} failed to load: ${why}`, err);
  }
  return unwrapInterop(mod.default);
}

/** The bundle of a rule file whose content is `source`. */
async function bundleOf(path: string, source: Uint8Array, shown: string): Promise<string> {
  try {
    return await bundleRuleFile(path, source);
  } catch (err) {
    if (err instanceof RuleCompileError) throw new UsageError(`rule file does not compile: ${err.message}`, err);
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UsageError(`rule file ${shown} failed to load: ${why}`, err);
  }
}

/**
 * Loads of a bundle in this thread, by its URL (named by its content, so by
 * the content of the file and of every file it imports): a worker, compare
 * or recheck loading the same code again reuses it, and an edited file, or
 * an edited file it imports, is loaded anew.
 */
const loaded = new Map<string, Promise<LoadedRules>>();

async function loadBundle(path: string, hash: string, bundle: string): Promise<LoadedRules> {
  let load = loaded.get(bundle);
  if (load === undefined) {
    load = loadRuleFile(path, hash, bundle);
    loaded.set(bundle, load);
    load.catch(() => loaded.delete(bundle));
  }
  return load;
}

async function loadRuleFile(path: string, hash: string, bundle: string): Promise<LoadedRules> {
  const shown = shownPath(path);
  const exported = await importBundle(bundle, shown);
  const problem = ruleSetProblem(exported);
  if (problem !== null) throw new UsageError(`rule file ${shown} is not a rule set: ${problem} (export default a RuleSet, or module.exports = one)`);
  const rules = exported as RuleSet;
  // The one place a user's rule set is handed out.
  return { rules, origin: { name: rules.name, source: shown, hash }, pin: { hash, bundle } };
}

/**
 * Loads a rule set by catalog name or file path. With `recorded` (a rule
 * file a trace was made with), `spec` must be a file with the recorded
 * content hash; that is checked before the file is compiled or run.
 */
export async function loadRules(spec: string, recorded?: RulesSource): Promise<LoadedRules> {
  return watchedLoad(spec, (s) => loadUnguarded(s, recorded));
}

/** {@link loadRules} without the watch and the guard. */
async function loadUnguarded(spec: string, recorded?: RulesSource): Promise<LoadedRules> {
  const value = ruleValue(spec);
  if (value !== undefined) {
    if (recorded !== undefined) throw new UsageError(`a rule set given as a value cannot be checked against the rule file ${recorded.source} the trace was recorded with: give that file's path`);
    return { rules: value, origin: { name: value.name, source: IN_PROCESS, hash: null } };
  }
  const fromCatalog = catalogRules(spec);
  if (fromCatalog !== undefined) {
    if (recorded !== undefined) throw new UsageError(`${spec} is a catalog rule set, not the rule file ${recorded.source} the trace was recorded with (replay --under re-runs the recorded world under other rules)`);
    return { rules: fromCatalog, origin: { name: spec, source: 'catalog', hash: null } };
  }
  if (!looksLikePath(spec)) {
    throw new UsageError(`unknown rule set "${spec}"; the catalog has: ${CATALOG.map((r) => r.name).join(', ')} (or give a path to a .ts rule file)`);
  }
  const path = resolve(spec);
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`rule file ${spec} is a folder; give the path of a rule file in it (a .ts or .js file whose default export is a rule set)`);
  if (!existsSync(path) || !statSync(path).isFile()) {
    const was = recorded === undefined ? '' : `; the trace was recorded with ${recorded.source}, relative to the folder it was made in: give the path of that file from here`;
    throw new UsageError(`rule file ${spec} does not exist${was}`);
  }
  // esbuild would read a .json, .yaml or .txt file as a script and fail on its first line with a parse error
  // that names neither the cause nor the fix: a rule set's decisions are functions, which data cannot hold.
  if (!isRuleFileName(path)) throw new UsageError(`rule file ${spec} is not a module: a rule set's decisions are functions, so give a ${RULE_FILE_EXTENSIONS_TEXT} file whose default export is a rule set (docs/rules.md, 'Writing a rule set')`);
  const source = readFileSync(path);
  const hash = hashOf(source);
  if (recorded !== undefined && hash !== recorded.hash) {
    throw new UsageError(
      `rule file ${spec} is not the one the trace was recorded with: its content hash is ${hash}, the trace recorded ${String(recorded.hash)} (for ${recorded.source}); restore that version to replay exactly (replay --under re-runs the recorded world under other rules)`,
    );
  }
  return loadBundle(path, hash, await bundleOf(path, source, shownPath(path)));
}

/**
 * Loads the rule set `spec` names as the command that pinned it loaded it
 * (see {@link RulePin}): from the bundle it imported, not from the file,
 * which may have been saved since. Should the bundle be gone (another
 * process's cache pruned it), the file is bundled again, and refused with
 * one line if its code is no longer what was pinned. A spec without a pin
 * (a catalog name) loads as {@link loadRules} does.
 */
export async function loadPinned(spec: string, pins: RulePins | undefined): Promise<LoadedRules> {
  const pin = pins?.[spec];
  if (pin === undefined) return loadRules(spec);
  return watchedLoad(spec, async () => {
    const path = resolve(spec);
    const stored = loaded.has(pin.bundle) ? pin.bundle : storedBundle(pin.bundle);
    if (stored !== null) return loadBundle(path, pin.hash, stored);
    const shown = shownPath(path);
    const source = existsSync(path) && statSync(path).isFile() ? readFileSync(path) : null;
    const hash = source === null ? null : hashOf(source);
    const again = source === null || hash !== pin.hash ? null : await bundleOf(path, source, shown);
    if (again !== pin.bundle) {
      const now = hash === null ? 'it is gone now' : `${again === null ? 'its content hash is' : 'a file it imports changed; its hash is still'} ${hash} now`;
      throw new UsageError(`rule file ${shown} changed while this command ran (content hash ${pin.hash} when it started; ${now}): run the command again`);
    }
    return loadBundle(path, pin.hash, again);
  });
}

/** Copies made so far in this thread (each a module instance of its own: the loader keeps every module it imported). */
let copies = 0;

/**
 * Another copy of a loaded rule file's rule set: its bundle imported again
 * as a new module instance, so with module-level variables of its own
 * (`rules-state-probe.ts` runs seeds on two of them), guarded as the
 * loaded one is. Null for a catalog rule set or a value: there is no file
 * to import again.
 */
export async function freshCopy(spec: string, loaded: LoadedRules): Promise<RuleSet | null> {
  const pin = loaded.pin;
  if (pin === undefined) return null;
  copies++;
  const copy = await watchedLoad(spec, async () => {
    const url = storedBundle(pin.bundle);
    if (url === null) throw new UsageError(`rule file ${loaded.origin.source}: its bundle was removed from the cache while this command ran (a day after it was written, with 32 newer): run the command again`);
    const exported = await importBundle(`${url}?copy=${copies}`, loaded.origin.source);
    const problem = ruleSetProblem(exported);
    if (problem !== null) throw new UsageError(`rule file ${loaded.origin.source} is not a rule set when imported again: ${problem}`);
    return { rules: exported as RuleSet, origin: loaded.origin };
  });
  return copy.rules;
}
