/**
 * What a step changed in the durable world (the outbox's records and claims,
 * the files, the broker), as a diff: for every row that appeared, vanished
 * or changed, its cells before and after the step. Computed from the panels'
 * rows (world-view.ts), so the diff and the tables use the same words; the
 * engines' memory is not durable and is left to the statechart and the
 * engines table.
 */
import type { WorldView } from './world-view.ts';

/** The panels a diff covers: the durable ones. */
export const DIFF_PANELS = ['records', 'claims', 'files', 'broker'] as const;

/** One row's change: `before` null when it appeared, `after` null when it vanished. */
export interface RowDiff {
  panel: (typeof DIFF_PANELS)[number];
  key: string;
  columns: string[];
  before: string[] | null;
  after: string[] | null;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The rows a step changed, from the view before it to the view after it, in panel order then key order. */
export function storeDiff(before: WorldView, after: WorldView): RowDiff[] {
  const out: RowDiff[] = [];
  for (const panel of DIFF_PANELS) {
    const was = new Map(before[panel].rows.map((r) => [r.key, r.cells]));
    const now = new Map(after[panel].rows.map((r) => [r.key, r.cells]));
    const keys = [...new Set([...was.keys(), ...now.keys()])].sort();
    for (const key of keys) {
      const b = was.get(key) ?? null;
      const a = now.get(key) ?? null;
      if (b !== null && a !== null && same(b, a)) continue;
      out.push({ panel, key, columns: after[panel].columns, before: b, after: a });
    }
  }
  return out;
}

/** The diff of every step: index 0 (the initial world) is empty, index n the change of step n. */
export function storeDiffs(views: readonly WorldView[]): RowDiff[][] {
  return views.map((v, i) => (i === 0 ? [] : storeDiff(views[i - 1], v)));
}
