/**
 * Reading a trace honestly: a missing file, a corrupt line, a truncated file
 * and an unknown format version are four different errors, each one line
 * naming what is wrong and what to do. No line is ever skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError } from '../sim/usage-error.ts';
import { lineSum, TRACE_FORMAT_NAME, TRACE_FORMAT_VERSION, traceId, type Trace, type TraceHeader, type TraceStep } from './format.ts';

/** The four ways a trace cannot be read. */
export type TraceErrorKind = 'missing' | 'corrupt-line' | 'truncated' | 'unknown-version';

/** A trace that cannot be read; a {@link UsageError}, so commands exit 2. */
export class TraceReadError extends UsageError {
  constructor(
    readonly kind: TraceErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'TraceReadError';
  }
}

function parseSealed(path: string, text: string, lineNo: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TraceReadError('corrupt-line', `${basename(path)}: line ${lineNo} is not valid JSON; the trace is corrupt (re-run the command that wrote it)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TraceReadError('corrupt-line', `${basename(path)}: line ${lineNo} is not a JSON object; the trace is corrupt`);
  }
  const { sum, ...content } = value as Record<string, unknown>;
  if (typeof sum !== 'string' || sum !== lineSum(content)) {
    throw new TraceReadError('corrupt-line', `${basename(path)}: line ${lineNo} fails its checksum; the trace is corrupt (re-run the command that wrote it)`);
  }
  return content;
}

/** Reads and verifies a trace file. */
export function readTrace(path: string): Trace {
  if (!existsSync(path)) throw new TraceReadError('missing', `trace ${path} does not exist; give the path of a .trace.jsonl file`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TraceReadError('missing', `trace ${path} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (text.length === 0) throw new TraceReadError('truncated', `${basename(path)} is empty; the trace is truncated`);
  const endsClean = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsClean) lines.pop();
  // The header first: its version decides whether we can read the rest at all.
  let rawHeader: unknown;
  try {
    rawHeader = JSON.parse(lines[0]);
  } catch {
    if (!endsClean && lines.length === 1) throw new TraceReadError('truncated', `${basename(path)} ends inside its header; the trace is truncated`);
    throw new TraceReadError('corrupt-line', `${basename(path)}: line 1 (the header) is not valid JSON; the trace is corrupt`);
  }
  const h = rawHeader as Partial<TraceHeader>;
  if (h.format !== TRACE_FORMAT_NAME) {
    throw new TraceReadError('corrupt-line', `${basename(path)}: line 1 is not an outbox-sim trace header`);
  }
  if (h.version !== TRACE_FORMAT_VERSION) {
    throw new TraceReadError('unknown-version', `${basename(path)} is trace format version ${String(h.version)}; this outbox-sim reads version ${TRACE_FORMAT_VERSION} (use the outbox-sim version that wrote it, ${String(h.tool)})`);
  }
  const header = parseSealed(path, lines[0], 1) as unknown as TraceHeader;
  const steps: TraceStep[] = [];
  for (let i = 1; i < lines.length; i++) {
    const last = i === lines.length - 1;
    if (last && !endsClean) {
      throw new TraceReadError('truncated', `${basename(path)} ends in the middle of line ${i + 1}; the trace is truncated`);
    }
    const step = parseSealed(path, lines[i], i + 1) as unknown as TraceStep;
    if (step.n !== i) throw new TraceReadError('corrupt-line', `${basename(path)}: line ${i + 1} is step ${String(step.n)}, expected ${i}; the trace is corrupt`);
    steps.push(step);
  }
  if (!endsClean) throw new TraceReadError('truncated', `${basename(path)} ends without a final newline; the trace is truncated`);
  if (steps.length !== header.stepCount) {
    throw new TraceReadError('truncated', `${basename(path)} has ${steps.length} steps but its header declares ${header.stepCount}; the trace is truncated`);
  }
  return { id: traceId(header, steps), header, steps };
}
