/**
 * `npm run corpus`: regenerates traces/corpus/ — the shrunk counterexample of
 * each flawed catalog rule set, as `check`'s swarm finds them with the default
 * budget: one trace per property a rule set breaks, the first seed's. The
 * small worlds are left out (`--swarm-only`): each of them would add a near
 * copy of the same flaw, and `check` rebuilds those exactly at any time. The test suite replays every corpus trace, so a change to a system that
 * alters them fails until the corpus is regenerated and reviewed.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../model/catalog/index.ts';
import { main as cli } from './main.ts';

export const CORPUS_DIR = join('traces', 'corpus');

export async function main(): Promise<number> {
  mkdirSync(CORPUS_DIR, { recursive: true });
  for (const f of readdirSync(CORPUS_DIR)) if (f.endsWith('.trace.jsonl')) rmSync(join(CORPUS_DIR, f));
  for (const rules of CATALOG.filter((r) => r.name !== 'fail-closed')) {
    const code = await cli(['check', '--swarm-only', '--rules', rules.name, '--out', CORPUS_DIR, '--json'], { out: () => undefined, err: (l) => process.stderr.write(`${l}\n`), tty: false });
    process.stdout.write(`${rules.name}: check exited ${code}\n`);
  }
  process.stdout.write(`${readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.trace.jsonl')).length} traces in ${CORPUS_DIR}\n`);
  return 0;
}
