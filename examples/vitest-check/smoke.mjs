// The API under plain node (no TypeScript loader, no test runner): one JSON line.
import { check, CATALOG } from 'outbox-sim';

const report = await check({ rules: 'fail-closed', seeds: 50 });
console.log(JSON.stringify({ catalog: CATALOG.map((r) => r.name), rules: report.rules, runs: report.runs, ok: report.ok }));
