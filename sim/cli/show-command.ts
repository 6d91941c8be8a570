/**
 * `outbox-sim show TRACE --format text|md|html [--out FILE]`: a trace for a
 * reader: a table for the terminal, Markdown for a pull request, or one
 * self-contained page to step through. Prints to stdout, or writes FILE
 * atomically (a temporary name, then a rename).
 */
import { mkdirSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { writeFileAtomic } from '../../traces/format.ts';
import { readTrace } from '../../traces/read.ts';
import { renderHtml } from '../../traces/render/html.ts';
import { renderMarkdown } from '../../traces/render/markdown.ts';
import { renderText } from '../../traces/render/text.ts';
import { choiceFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';
import type { Io } from './io.ts';

/** The formats `show` writes. */
export const SHOW_FORMATS = ['text', 'md', 'html'] as const;
export type ShowFormat = (typeof SHOW_FORMATS)[number];

/** Without `--format`, the format an `--out` file's extension asks for (text otherwise). */
function formatFor(out: string | undefined): ShowFormat {
  const ext = out === undefined ? '' : extname(out).toLowerCase();
  return ext === '.html' || ext === '.htm' ? 'html' : ext === '.md' ? 'md' : 'text';
}

/**
 * Renders the trace at `tracePath`. Exit 0; bad flags throw {@link UsageError}
 * and an unreadable trace throws the reader's `TraceReadError` (exit 2).
 */
export async function showCommand(tracePath: string, flags: { format?: string; out?: string }, io: Io): Promise<number> {
  const format = choiceFlag('--format', flags.format, SHOW_FORMATS, formatFor(flags.out));
  if (flags.out !== undefined && flags.out.trim() === '') throw new UsageError('--out needs a file name');
  const trace = readTrace(tracePath);
  const options = { path: tracePath };
  const rendered = format === 'html' ? renderHtml(trace, options) : format === 'md' ? renderMarkdown(trace, options) : renderText(trace, options);
  if (flags.out === undefined) {
    io.out(rendered.replace(/\n$/, ''));
    return 0;
  }
  try {
    mkdirSync(dirname(flags.out), { recursive: true });
    writeFileAtomic(flags.out, rendered);
  } catch (err) {
    throw new UsageError(`--out ${flags.out} cannot be written: ${err instanceof Error ? err.message : String(err)}`);
  }
  io.err(`wrote ${format} of trace ${trace.id} to ${flags.out}`);
  return 0;
}
