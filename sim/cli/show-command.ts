/**
 * `outbox-sim show TRACE --format text|md|html [--out FILE]`: a trace for a
 * reader: a table for the terminal, Markdown for a pull request, or one
 * self-contained page to step through. Prints to stdout, or writes FILE
 * atomically (a temporary name, then a rename).
 */
import { basename, extname } from 'node:path';
import type { Trace } from '../trace-format.ts';
import { clipTrace } from '../../traces/render/bound.ts';
import { readTrace } from '../../traces/read.ts';
import { renderHtml } from '../../traces/render/html.ts';
import { renderMarkdown } from '../../traces/render/markdown.ts';
import { renderText } from '../../traces/render/text.ts';
import { ruleFilesNotFound } from '../../traces/render/rules-from-here.ts';
import { choiceFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';
import { terminalText } from '../terminal-text.ts';
import type { Io } from './io.ts';
import { checkOutputFile, emitDocument } from './output-place.ts';

/** The formats `show` writes. */
export const SHOW_FORMATS = ['text', 'md', 'html'] as const;
export type ShowFormat = (typeof SHOW_FORMATS)[number];

/** The extensions that name a format; `.txt` and no extension are text. */
const FORMAT_OF_EXT: Readonly<Record<string, ShowFormat>> = { '.html': 'html', '.htm': 'html', '.md': 'md', '.markdown': 'md', '.txt': 'text', '': 'text' };

/**
 * Without `--format`, the format an `--out` file's extension asks for (text
 * otherwise). An extension of no format `show` writes is bad input: `x.pdf`
 * got a text table under a name that promised something else.
 */
function formatFor(out: string | undefined): ShowFormat {
  if (out === undefined) return 'text';
  const ext = extname(out).toLowerCase();
  const format = FORMAT_OF_EXT[ext];
  if (format === undefined) throw new UsageError(`--out ${out}: show writes text (.txt), Markdown (.md) or HTML (.html), not ${ext}; give one of those extensions, or --format`);
  return format;
}

/**
 * Renders a trace read and shape-checked by the reader. A state built from
 * well-shaped lines may still hold values no run makes (a record that is a
 * number); a renderer that trips on one says so in one line rather than
 * with a stack.
 */
function render(trace: Trace, format: ShowFormat, path: string): string {
  const options = { path };
  try {
    return format === 'html' ? renderHtml(trace, options) : format === 'md' ? renderMarkdown(trace, options) : renderText(trace, options);
  } catch (err) {
    if (err instanceof TypeError || err instanceof RangeError) {
      throw new UsageError(`trace ${trace.id} records states outbox-sim cannot draw (${err.message.slice(0, 200)}); the trace was edited or made by something else`);
    }
    throw err;
  }
}

/**
 * The trace, if it is of the outbox model. The renderers draw an outbox
 * world's records, engines and broker, and no command writes a trace of
 * another model (a header may still say "receipts", docs/architecture.md):
 * such a trace is refused in one line, not tripped over in a renderer.
 */
function outboxTrace(trace: Trace, path: string): Trace {
  if (trace.header.model === 'outbox') return trace;
  throw new UsageError(
    `${basename(path)} is a trace of the ${terminalText(trace.header.model.slice(0, 40))} model; show draws outbox traces only (their records, engines and broker): read its JSON lines directly, one step a line`,
  );
}

/**
 * Renders the trace at `tracePath`. Exit 0; bad flags throw {@link UsageError}
 * and an unreadable trace throws the reader's `TraceReadError` (exit 2).
 */
export async function showCommand(tracePath: string, flags: { format?: string; out?: string }, io: Io): Promise<number> {
  const format = flags.format !== undefined ? choiceFlag('--format', flags.format, SHOW_FORMATS, 'text') : formatFor(flags.out);
  if (flags.out !== undefined) checkOutputFile('--out', flags.out);
  // Clipped for display: the reader bounds what it reads, this bounds each cell.
  const trace = clipTrace(outboxTrace(readTrace(tracePath), tracePath));
  const rendered = render(trace, format, tracePath);
  emitDocument(rendered, flags.out, io, `${format} of trace ${trace.id}`);
  // The replay command it prints names the rule file as recorded; said when that version is nowhere to be found, so that a pasted command that will be refused is not a surprise.
  for (const r of ruleFilesNotFound(tracePath, trace.header)) {
    io.err(`outbox-sim: note: no ${terminalText(r.source)} with the content hash the trace recorded (${terminalText(r.hash ?? '')}) was found from here or above the trace: its replay command will be refused until that version of the file is back`);
  }
  return 0;
}
