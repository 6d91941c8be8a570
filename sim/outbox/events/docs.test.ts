/** docs/faults.md's fault menu is the one the event table generates (`npm run docs:faults` rewrites it). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from './table.ts';
import { faultMenu, withMenu } from './docs.ts';
import { FAULTS_PAGE } from './write-docs.ts';

describe('docs/faults.md', () => {
  const page = readFileSync(FAULTS_PAGE, 'utf8');

  it('holds the fault menu generated from the event table, unchanged', () => {
    expect(page, 'docs/faults.md differs from the event table: run `npm run docs:faults`').toBe(withMenu(page, faultMenu()));
  });

  it('has a row for every kind and every durable write', () => {
    const menu = faultMenu();
    for (const k of EVENT_KINDS) expect(menu).toContain(`| \`${k.name}\` |`);
    for (const w of EVENT_KINDS.flatMap((k) => k.durable ?? [])) expect(menu).toContain(`| ${w.write} |`);
  });

  it('keeps the hand-written prose around the generated section', () => {
    const edited = withMenu(page, 'X\n');
    expect(edited.startsWith(page.slice(0, page.indexOf('<!-- BEGIN')))).toBe(true);
    expect(edited.endsWith(page.slice(page.indexOf('<!-- END')))).toBe(true);
    expect(() => withMenu('no markers', 'X')).toThrow(/markers/);
  });
});
