/**
 * No copy of the event lists remains: every kind of the table (and every
 * variant a report counts) is named, as a string in code, only in its own
 * entry file. Outside the table's folder a name may appear only in the
 * packed explorer's hand-specialised listing (sim/outbox/packed/, held to
 * the table kind by kind by table-agreement.test.ts), in tests, docs and
 * traces. Searched: every source file of sim/ (but sim/receipts/, the
 * second system, whose words are its own), traces/ and bin/, comments left
 * out. model/ and properties/ are the protocol and its rule sets: their
 * replies (`garbled-200`) and decisions (`requeue`) are the words some kinds
 * are named after, not lists of kinds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from './table.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SEARCHED = ['sim', 'traces', 'bin'];
const SKIPPED = new Set(['node_modules', 'corpus', 'found', 'receipts']);
const TABLE = 'sim/outbox/events/';
const SPECIALISED = 'sim/outbox/packed/';

/**
 * Strings in code that are the same word as a kind's name but not the kind:
 * file, word, and what it is there. Each must still be found (no stale entry).
 */
const OTHER_WORDS: readonly (readonly [string, string, string])[] = [
  ['sim/cli/rule-fault.ts', 'step', 'a field of a rule fault (the step it was raised at)'],
  ['traces/render/html.ts', 'step', 'an HTML data field: the step a violation was seen at'],
  ['traces/render/html-client.ts', 'step', "an ARIA value (aria-current='step')"],
  ['traces/render/markdown.ts', 'step', 'a table column header'],
  ['sim/cli/explore-command.ts', 'step', 'the noun of a count of steps ("1 step", "16 steps")'],
  ['sim/outbox/decision-cases.ts', 'requeue', "the rule set's decision of that name (model/rules.ts), and its plain case"],
  ['sim/outbox/thresholds.ts', 'requeue', "the rule set's decision of that name (model/rules.ts), whose calls the threshold probe notes"],
  ['sim/outbox/body-probe.ts', 'requeue', "the rule set's decision of that name (model/rules.ts), whose calls the body probe asks again"],
  ['sim/outbox/status-probe.ts', 'requeue', "the rule set's decision of that name (model/rules.ts), whose calls the status probe asks again"],
  ['sim/outbox/decision-cases.ts', 'resubmit', 'the operator action the requeue decision is told of (OperatorAction, model/rules.ts)'],
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mjs)$/.test(entry.name) && !/(\.test\.ts|^test-[^/]*\.ts)$/.test(entry.name)) out.push(path.split(sep).join('/'));
  }
  return out;
}

/** A file's code: block and line comments removed (a `//` inside a string may cut a line short; that only hides, never invents, a name). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const FILES = SEARCHED.flatMap(sourceFiles).map((f) => ({ path: f, code: codeOf(readFileSync(join(ROOT, f), 'utf8')) }));
const NAMES = [...new Set(EVENT_KINDS.flatMap((k) => [k.name, ...(k.variants ?? []).map((v) => v.name)]))];

/** The files whose code holds `name` as a string ('name', "name" or `name`). */
function filesNaming(name: string): string[] {
  const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const pattern = new RegExp(`(['"\`])${escaped}\\1`);
  return FILES.filter((f) => pattern.test(f.code)).map((f) => f.path);
}

describe('no copy of the event lists', () => {
  it('searches the files it says it does', () => {
    expect(FILES.map((f) => f.path)).toContain('sim/outbox/options.ts');
    expect(FILES.map((f) => f.path)).toContain('sim/outbox/world.ts');
    expect(FILES.length).toBeGreaterThan(100);
    expect(relative(ROOT, fileURLToPath(import.meta.url)).split(sep).join('/')).toBe(`${TABLE}no-copies.test.ts`);
  });

  it.each(NAMES)('%s is named in its entry file only (and the packed explorer)', (name) => {
    const files = filesNaming(name);
    const entries = files.filter((f) => f.startsWith(TABLE));
    // Its entry (or none: an answer is a key of its entry's spec table, not a string).
    expect(entries.length, `files of the table naming it: ${entries.join(', ')}`).toBeLessThanOrEqual(1);
    const elsewhere = files.filter((f) => !f.startsWith(TABLE) && !f.startsWith(SPECIALISED) && !OTHER_WORDS.some(([file, word]) => file === f && word === name));
    expect(elsewhere).toEqual([]);
  });

  it('each other word listed is still there (the list does not go stale)', () => {
    for (const [file, word] of OTHER_WORDS) expect(filesNaming(word)).toContain(file);
  });
});
