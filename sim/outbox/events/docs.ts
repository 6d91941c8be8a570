/**
 * The fault menu of docs/faults.md, generated from the event table so that
 * it cannot drift: one section per subsystem with a row per kind, then the
 * crash-point matrix. `npm run docs:faults` writes it between the page's
 * markers; a test holds the page to it.
 */
import { crashPoints } from './crash-points.ts';
import type { AnyKind } from './kind.ts';
import { EVENT_KINDS, GROUPS } from './table.ts';

export const BEGIN_MARKER = '<!-- BEGIN generated from sim/outbox/events/ by `npm run docs:faults`; edit the table, not this section -->';
export const END_MARKER = '<!-- END generated -->';

/** Table cells cannot hold a `|`. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

function row(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

function kindRows(k: AnyKind): string[] {
  const rows = [row([`\`${k.name}\``, k.tag, `\`${k.doc.example}\``, k.doc.enabled, k.doc.does, k.doc.stands, k.counter === null ? 'none of its own' : `\`${k.counter}\``])];
  for (const v of k.variants ?? []) {
    rows.push(row([`\`${v.name}\``, v.tag, `(a \`${k.name}\`, tagged)`, v.doc.enabled, v.doc.does, v.doc.stands, `\`${v.counter}\``]));
  }
  return rows;
}

/** The generated section of docs/faults.md (without the markers). */
export function faultMenu(): string {
  const lines: string[] = [];
  for (const g of GROUPS) {
    lines.push(`## ${g.title} (\`${g.name}\`)`, '', g.intro, '');
    lines.push(row(['event', 'tag', 'label in a trace', 'enabled when', 'what it does', 'what it stands for', 'counted by']));
    lines.push(row(['---', '---', '---', '---', '---', '---', '---']));
    for (const k of EVENT_KINDS.filter((x) => x.group === g.name)) lines.push(...kindRows(k));
    lines.push('');
  }
  lines.push('## Crash points', '');
  lines.push(
    'A crash is filed by the lifecycle state the engine was in (`crash@<state>`). Every durable write is one step, so each state is where exactly one write is next: a crash there is a crash just before that write (and just after the one before it; an idle engine is after its last dispose and before its next publish). The summary prints one row per durable write, each crash counted once, in the statechart\'s order of states (`crashPoints` in `sim/outbox/events/crash-points.ts`):',
    '',
  );
  lines.push(row(['durable write', 'crash just before (state)', 'crash during']));
  lines.push(row(['---', '---', '---']));
  for (const c of crashPoints()) lines.push(row([c.write, `\`${c.before}\``, c.during === null ? '' : `\`${c.during}\``]));
  lines.push('');
  return lines.join('\n');
}

/** `page` with its generated section replaced by `section`; throws when the markers are missing. */
export function withMenu(page: string, section: string): string {
  const begin = page.indexOf(BEGIN_MARKER);
  const end = page.indexOf(END_MARKER);
  if (begin < 0 || end < begin) throw new Error('docs/faults.md: the generated-section markers are missing');
  return `${page.slice(0, begin + BEGIN_MARKER.length)}\n\n${section}\n${page.slice(end)}`;
}
