/**
 * Codes of a record under the paths a statechart step read of it
 * (`read-watch.ts`): two records get one code for a set of paths exactly
 * when an engine of one rule set reads them alike at every path of the set
 * and the world sees the same kind and status (the parked-body note every
 * step makes: `record-reads.ts`). A program derived on one record is kept
 * under its code (`transitions.ts`) and serves every record with that code.
 *
 * A record is read for an engine as the world reads it for the engine's
 * step (`readSlot` with the engine's rule set); every derivation checks the
 * values its step saw against the ones computed here ({@link check}), so a
 * reader that drifted from the world's throws instead of sharing.
 */
import type { RuleSet } from '../../../model/rules.ts';
import type { RecordRead, RecordSlot } from '../../../model/types.ts';
import type { EngineProc } from '../world.ts';
import { readAs } from '../events/context.ts';
import type { RecordProjection } from './record-reads.ts';
import { valueAt } from './read-watch.ts';
import { sparseInts, sparseList } from './arrays.ts';

/** How an engine of each version reads a record slot. */
export type Readers = Record<EngineProc['version'], (slot: RecordSlot | undefined) => RecordRead>;

/** The readers of a world's rule sets: an old engine runs the old rules when there are any (as `rulesOf` in the event table). */
export function readersOf(worldRules: { rules: RuleSet; oldRules?: RuleSet }): Readers {
  const reader = (rules: RuleSet) => (slot: RecordSlot | undefined) => readAs(rules, slot);
  return { new: reader(worldRules.rules), old: reader(worldRules.oldRules ?? worldRules.rules) };
}

const VERSIONS: readonly EngineProc['version'][] = ['new', 'old'];

export class ReadCodes {
  /** Each set of paths (sorted), by its id. */
  private readonly sets: (readonly string[])[] = [];
  private readonly setIds = new Map<string, number>();
  /** Per set and version (`2 * set + version`): the code of each interned record, by its id. */
  private readonly byRecord = sparseList<number[]>();
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly value: (recordId: number) => RecordSlot | undefined,
    private readonly projection: RecordProjection,
    /** Null: only the empty set (a step that never touched its read) has codes. */
    private readonly readers: Readers | null,
  ) {}

  /** Whether records can be coded under `paths` (any set with readers; without, only the empty one). */
  codable(paths: readonly string[]): boolean {
    return this.readers !== null || paths.length === 0;
  }

  /** The id of the set of `paths` (in any order). */
  setOf(paths: readonly string[]): number {
    const sorted = [...paths].sort();
    const text = sorted.join('\n');
    let id = this.setIds.get(text);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push(sorted);
      this.setIds.set(text, id);
    }
    return id;
  }

  /** The code of the interned record `recordId` under set `set`, as an engine of `version` reads it. */
  code(set: number, version: EngineProc['version'], recordId: number): number {
    const at = 2 * set + VERSIONS.indexOf(version);
    const memo = (this.byRecord[at] ??= sparseInts());
    let c = memo[recordId];
    if (c === undefined) memo[recordId] = c = this.compute(set, version, recordId);
    return c;
  }

  /** Throws unless the values a step saw at `paths` are the ones this reads of record `recordId`. */
  check(version: EngineProc['version'], recordId: number, paths: readonly string[], seen: readonly string[]): void {
    if (paths.length === 0) return;
    const read = this.read(version, recordId);
    for (let i = 0; i < paths.length; i++) {
      const v = valueAt(read, paths[i]);
      if (v !== seen[i]) throw new Error(`packed transitions: a step saw ${paths[i]} = ${seen[i]} where the record reads ${v}; the readers differ from the world's`);
    }
  }

  private read(version: EngineProc['version'], recordId: number): RecordRead {
    if (this.readers === null) throw new Error('packed transitions: a record read without readers');
    return this.readers[version](this.value(recordId));
  }

  private compute(set: number, version: EngineProc['version'], recordId: number): number {
    const paths = this.sets[set];
    const values = paths.length === 0 ? [] : ((read) => paths.map((p) => valueAt(read, p)))(this.read(version, recordId));
    const text = `${set}|${this.projection.of(recordId)}|${JSON.stringify(values)}`;
    let c = this.codes.get(text);
    if (c === undefined) this.codes.set(text, (c = this.codes.size));
    return c;
  }
}
