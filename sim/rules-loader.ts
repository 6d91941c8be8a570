/**
 * Resolves a rule set named on the command line: a catalog name, or a path to
 * a user's `.ts` rule file whose default export is a rule set. A file that
 * fails to load, or exports something else, is a {@link UsageError}.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOG, catalogRules } from '../model/catalog/index.ts';
import { ruleSetProblem, type RuleSet } from '../model/rules.ts';
import { UsageError } from './usage-error.ts';
import { watchedLoad } from './rules-guard.ts';

/** Where a rule set came from, as recorded in a trace header. */
export interface RulesSource {
  name: string;
  /** `catalog`, or the path of the user's file as given. */
  source: string;
  /** sha256 (first 16 hex) of a user file's content; null for the catalog. */
  hash: string | null;
}

/** A loaded rule set and where it came from. */
export interface LoadedRules {
  rules: RuleSet;
  origin: RulesSource;
}

function looksLikePath(spec: string): boolean {
  return spec.includes('/') || spec.endsWith('.ts') || spec.endsWith('.js') || spec.endsWith('.mjs');
}

/** Content hash of a rule file, as recorded in traces. */
export function fileHash(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
}

/** Loads a rule set by catalog name or file path; a user's file is imported under the watch and its rule set guarded (`rules-guard.ts`). */
export async function loadRules(spec: string): Promise<LoadedRules> {
  return watchedLoad(spec, loadUnguarded);
}

async function loadUnguarded(spec: string): Promise<LoadedRules> {
  const fromCatalog = catalogRules(spec);
  if (fromCatalog !== undefined) return { rules: fromCatalog, origin: { name: spec, source: 'catalog', hash: null } };
  if (!looksLikePath(spec)) {
    throw new UsageError(`unknown rule set "${spec}"; the catalog has: ${CATALOG.map((r) => r.name).join(', ')} (or give a path to a .ts rule file)`);
  }
  const path = resolve(spec);
  if (!existsSync(path)) throw new UsageError(`rule file ${spec} does not exist`);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UsageError(`rule file ${spec} failed to load: ${why}`);
  }
  const problem = ruleSetProblem(mod.default);
  if (problem !== null) throw new UsageError(`rule file ${spec} is not a rule set: ${problem} (export default a RuleSet)`);
  return { rules: mod.default as RuleSet, origin: { name: (mod.default as RuleSet).name, source: spec, hash: fileHash(path) } };
}
