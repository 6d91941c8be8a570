/** `outbox-sim rules [--json]`: the catalog, name and one-line summary. */
import { CATALOG } from '../../model/catalog/index.ts';
import type { Io } from './io.ts';

export function rulesCommand(json: boolean, io: Io): number {
  if (json) {
    io.out(JSON.stringify(CATALOG.map((r) => ({ name: r.name, summary: r.summary }))));
    return 0;
  }
  const width = Math.max(...CATALOG.map((r) => r.name.length));
  for (const r of CATALOG) io.out(`${r.name.padEnd(width)}  ${r.summary}`);
  io.out('');
  io.out('Anywhere a rule set is named, a path to your own .ts rule file (default export) works too.');
  return 0;
}
