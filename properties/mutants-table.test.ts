/**
 * docs/rules.md's table of mutants says what properties/mutants.test.ts
 * requires of each: every mutant of `MUTANTS` has a row, and its "killed by"
 * column starts with the property the test requires. The table once named
 * a property the test had long stopped requiring, and missed three mutants.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from './mutants/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEXT = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');

/** The table's rows: mutant name (first backquoted name of the column), killed-by cell. */
function rows(): { mutant: string; killedBy: string }[] {
  const section = TEXT.slice(TEXT.indexOf('## Mutants'));
  const out: { mutant: string; killedBy: string }[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 6 || !cells[1].startsWith('`')) continue;
    const name = /`([^`]+)`/.exec(cells[2]);
    if (name !== null) out.push({ mutant: name[1], killedBy: cells[4] });
  }
  return out;
}

describe('the mutant table of docs/rules.md', () => {
  it('has a row for each mutant check must kill, naming the property the test requires first', () => {
    const table = rows();
    for (const m of MUTANTS) {
      const name = m.rules.name.replace(/^mutant-/, '');
      const mine = table.filter((r) => r.mutant === name);
      expect(mine.length, `no row for ${name}`).toBeGreaterThan(0);
      expect(mine.some((r) => r.killedBy.startsWith(m.breaks)), `${name}: the test requires ${m.breaks}; the table says ${mine.map((r) => r.killedBy).join(' / ')}`).toBe(true);
    }
  });
  it('reads the table (a row per line, the names without their prefix)', () => {
    expect(rows().find((r) => r.mutant === 'attempt-log')).toEqual({ mutant: 'attempt-log', killedBy: 'bounded-record' });
  });
});
