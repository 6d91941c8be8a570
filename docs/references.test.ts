/**
 * The documentation the code cites lives in this repository. Every source
 * and documentation file is scanned: none may cite a document outside the
 * repository, every `docs/<page>.md` it names must exist, every section it
 * quotes after the page ("docs/rules.md, 'The catalog'") must be a heading
 * of that page, and every link between docs pages must reach a file and,
 * with `#anchor`, a heading of it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = join(ROOT, 'docs');
/** Folders that are not the project's own text. */
const SKIPPED = new Set(['node_modules', '.git', 'found', 'corpus', 'scratch', '.tmp-test', 'dist']);
const TEXT = /\.(ts|mjs|js|md)$/;

function textFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...textFiles(path));
    else if (TEXT.test(entry.name)) out.push(path);
  }
  return out;
}

/** Heading texts of a Markdown page, without the `#`s. */
export function headings(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, '').trim());
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** True when `section` names a heading: the whole heading, or its first words. */
export function namesHeading(section: string, all: readonly string[]): boolean {
  return all.some((h) => h === section || h.startsWith(`${section} `));
}

/** Citations of a docs page in a text, with the quoted section when there is one. */
export function citations(text: string): { page: string; section: string | null }[] {
  const out: { page: string; section: string | null }[] = [];
  for (const m of text.matchAll(/docs\/([\w-]+\.md)(?:,? \(?'([^']+)'\)?)?/g)) out.push({ page: m[1], section: m[2] ?? null });
  return out;
}

const files = textFiles(ROOT);
const rel = (p: string): string => relative(ROOT, p);
/**
 * Names of the developers' notes kept outside the repository, spelled in
 * pieces so that this file does not match itself.
 */
const OUTSIDE = new RegExp(['DOM' + 'AIN', 'STY' + 'LE\\.md', 'STY' + 'LE:', '\\.\\./sha' + 'red'].join('|'));

describe('the docs the code cites are in the repository', () => {
  it('no file cites a document kept outside the repository', () => {
    const hits = files
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ at: `${rel(f)}:${i + 1}`, line })))
      .filter(({ line }) => OUTSIDE.test(line))
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(hits).toEqual([]);
  });

  it('every docs page and section a file cites exists', () => {
    const broken: string[] = [];
    let cited = 0;
    for (const f of files) {
      for (const c of citations(readFileSync(f, 'utf8'))) {
        cited++;
        const page = join(DOCS, c.page);
        if (!existsSync(page)) broken.push(`${rel(f)}: docs/${c.page} does not exist`);
        else if (c.section !== null && !namesHeading(c.section, headings(readFileSync(page, 'utf8')))) {
          broken.push(`${rel(f)}: docs/${c.page} has no section '${c.section}'`);
        }
      }
    }
    expect(broken).toEqual([]);
    // The comments were pointed into docs/; a scan that finds none is looking in the wrong place.
    expect(cited).toBeGreaterThan(30);
  });

  it('every link between docs pages reaches a file and a heading', () => {
    const broken: string[] = [];
    for (const page of readdirSync(DOCS).filter((n) => n.endsWith('.md'))) {
      const text = readFileSync(join(DOCS, page), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [target, anchor] = m[1].split('#');
        if (/^[a-z]+:/.test(target)) continue;
        const path = target === '' ? join(DOCS, page) : resolve(DOCS, target);
        if (!existsSync(path)) broken.push(`${page}: ${m[1]}: no such file`);
        else if (anchor !== undefined && !headings(readFileSync(path, 'utf8')).map(anchorOf).includes(anchor)) {
          broken.push(`${page}: ${m[1]}: no such heading`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the helpers of this check', () => {
  it('read a citation with or without a quoted section', () => {
    expect(citations("see docs/protocol.md, 'Claims'; docs/rules.md ('The catalog') and docs/faults.md.")).toEqual([
      { page: 'protocol.md', section: 'Claims' },
      { page: 'rules.md', section: 'The catalog' },
      { page: 'faults.md', section: null },
    ]);
  });

  it('match a section to a heading by its whole text or its first words', () => {
    const h = headings('# Title\n\n## The catalog\n\n### fresh-cycle (`model/catalog/fresh-cycle.ts`)\n');
    expect(namesHeading('fresh-cycle', h)).toBe(true);
    expect(namesHeading('The catalog', h)).toBe(true);
    expect(namesHeading('catalog', h)).toBe(false);
    expect(namesHeading('fresh', h)).toBe(false);
  });

  it('give GitHub\'s anchors', () => {
    expect(anchorOf('reached:* (sometimes)')).toBe('reached-sometimes');
    expect(anchorOf('A run: safety, then liveness')).toBe('a-run-safety-then-liveness');
    expect(anchorOf('Controlled conditions C1-C9')).toBe('controlled-conditions-c1-c9');
  });
});
