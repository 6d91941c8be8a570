/**
 * The outbox world's canonical key, written field by field in a fixed order
 * (no key sorting, no JSON for the fixed-shape parts): the explorer computes
 * one per transition, so this is its hot path. Records are open objects, so
 * they are encoded as canonical JSON, memoised per (immutable) record.
 * `encode.test.ts` holds it equivalent to canonical JSON of the whole world:
 * equal keys exactly when the states are equal.
 */
import { canonicalJson } from '../core/canonical.ts';
import type { OutboxRecord, ResultFile } from '../../model/types.ts';
import { OWNED_SLOTS } from './events/table.ts';
import type { World } from './world.ts';

const recordKeys = new WeakMap<OutboxRecord, string>();

function recordKey(r: OutboxRecord): string {
  let k = recordKeys.get(r);
  if (k === undefined) {
    k = canonicalJson(r);
    recordKeys.set(r, k);
  }
  return k;
}

function fileKey(f: ResultFile | null | undefined): string {
  return f ? `${f.id}${f.body}${f.generation}` : '-';
}

/** An encoder for worlds over the given ids. */
export function worldEncoder(ids: readonly string[]): (w: World) => string {
  return (w) => {
    let s = '';
    for (const id of ids) {
      const slot = w.records[id];
      s += slot === undefined ? '-' : slot.kind === 'torn' ? `T${slot.bytes}` : recordKey(slot.record);
      const c = w.claims[id];
      s += c === undefined ? '|-' : c.kind === 'torn' ? '|T' : c.until === undefined ? `|${c.owner}` : `|${c.owner}@${c.until}`;
      s += `|${fileKey(w.live[id])}`;
      const b = w.broker[id];
      // The log (--broker log) and the rekeyed note (retries-deduped) too: states that differ in them were merged, and the
      // properties that read them (at-most-once, retries-deduped) could miss a violation reached only through the state dropped.
      s += b === undefined ? '|-' : `|${b.body}#${b.key}${b.log === undefined ? '' : `L${b.log.join(',')}`}${b.rekeyed === true ? 'R' : ''}`;
      s += `|${w.produced[id] ?? 0}|${w.reported[id] ?? '-'};`;
    }
    for (const f of w.archived) s += `a${fileKey(f)}`;
    // The contradicted note (honest-park, on a file) too: states that differ in it are two states.
    for (const q of w.quarantined) s += `q${fileKey(q)}:${q.cause}${q.contradicted === true ? '!' : ''}`;
    for (const e of w.engines) {
      const c = e.ctx;
      s += `E${e.pid}${e.version}${e.state}:${c.id ?? '-'}:${fileKey(c.file)}:${c.envelope ? `${c.envelope.body}#${c.envelope.key}` : '-'}:${c.outcome ?? '-'}:`;
      if (c.pending !== null) for (const r of c.pending) s += recordKey(r);
      else s += 'n';
    }
    s += `P${w.published.join(',')}K${w.parkedAttempts.join(',')}G${w.parkedGone.join(',')}`;
    // Slots kinds own (`slots` in the table; rare, small, open): canonical JSON.
    for (const slot of OWNED_SLOTS) {
      const v = (w as unknown as Record<string, unknown>)[slot];
      if (v !== undefined) s += `O${slot}${canonicalJson(v)}`;
    }
    s += `N${w.nextPid},${w.nextGeneration},${w.crashes},${w.corruptions},${w.operatorActions},${w.healing ? 1 : 0}`;
    return s;
  };
}
