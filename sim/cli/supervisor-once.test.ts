/**
 * A hang is reported once: terminating the hung thread can outlast a poll
 * of the watch cell (a loaded machine, or polls this short), and each poll
 * meanwhile saw the same hang and printed its line again.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { supervise } from './supervisor.ts';

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'supervisor-once-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('supervisor', () => {
  it('reports a decision that never returns in one line, however many polls the termination takes', { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    // One worker: the small worlds would otherwise start threads (check's default), whose own import of the
    // rule file can outlast this test's short budget on a loaded machine before any decision is called.
    const code = await supervise(['check', '--rules', 'properties/broken-rules/classify-loops.ts', '--seeds', '5', '--workers', '1', '--quiet', '--out', tmp], {
      budgetSeconds: 0.2,
      pollMs: 1,
      err: (line) => lines.push(line),
    });
    expect(code).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/classify did not return within/);
  });
});
