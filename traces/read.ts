/**
 * Reading a trace honestly: a missing file, a file that is no trace at all
 * (binary, or not JSON lines), a corrupt line, a truncated file, an unknown
 * format version, a file or line too large to be a trace and a line of the
 * wrong shape are different errors, each one line naming what is
 * wrong and what to do. No line is ever skipped.
 *
 * A trace is data from anywhere (a pull request, a CI artifact), so reading
 * is bounded: the file's size is checked before it is read, each line's
 * length before it is parsed, and every sealed line is held to the shape
 * this tool writes (traces/shape.ts) before anything uses it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError } from '../sim/usage-error.ts';
import { lineSum, TRACE_FORMAT_NAME, TOOL_VERSION, TRACE_FORMAT_VERSION, traceId, type Trace, type TraceHeader, type TraceStep } from '../sim/trace-format.ts';
import { headerProblem, stepProblem } from './shape.ts';
import { readBudget, readForm, WrittenFormError, type ReadBudget } from '../sim/trace-strings.ts';
import { currentOptions } from '../sim/outbox/legacy-options.ts';
import { REBUILD_COPIES_MAX, rebuildTooCostly } from './rebuild-cost.ts';

/** The ways a trace cannot be read. */
export type TraceErrorKind = 'missing' | 'not-a-trace' | 'corrupt-line' | 'truncated' | 'unknown-version' | 'too-large' | 'bad-shape';

/**
 * The largest trace file read. Traces this tool writes are a few kilobytes
 * to a few hundred (a step line is under 1 KB, a run under a thousand steps).
 */
export const TRACE_BYTES_MAX = 64 * 1024 * 1024;
/** The longest line read (in characters), about a thousand times the longest a run writes. */
export const TRACE_LINE_CHARS_MAX = 1024 * 1024;

const MiB = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

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

function parseSealed(path: string, text: string, lineNo: number, budget: ReadBudget): Record<string, unknown> {
  tooLong(path, text, lineNo);
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
  if (typeof sum !== 'string' || sum !== sumOf(path, content, lineNo)) {
    throw new TraceReadError('corrupt-line', `${basename(path)}: line ${lineNo} fails its checksum; the trace is corrupt (re-run the command that wrote it)`);
  }
  // Long strings are written in runs (sim/trace-strings.ts): read back, within a budget (a few bytes may stand for a gigabyte).
  try {
    return readForm(content, budget) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof WrittenFormError)) throw err;
    throw new TraceReadError('too-large', `${basename(path)}: line ${lineNo} holds a long string outbox-sim cannot read back (${err.message}); it is not a trace outbox-sim wrote`);
  }
}

/** A last line without its final newline: read as any other when whole, else the trace is truncated. */
function lastLine(path: string, text: string, lineNo: number, budget: ReadBudget): Record<string, unknown> {
  try {
    return parseSealed(path, text, lineNo, budget);
  } catch (err) {
    if (err instanceof TraceReadError && err.kind === 'corrupt-line') throw new TraceReadError('truncated', `${basename(path)} ends in the middle of line ${lineNo}; the trace is truncated`);
    throw err;
  }
}

/** The line's checksum; a value nested deeper than the stack allows (JSON.parse takes any depth) is refused, not a crash. */
function sumOf(path: string, content: unknown, lineNo: number): string {
  try {
    return lineSum(content);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new TraceReadError('too-large', `${basename(path)}: line ${lineNo} nests values deeper than a trace does; it is not a trace outbox-sim wrote`);
  }
}

function tooLong(path: string, text: string, lineNo: number): void {
  if (text.length > TRACE_LINE_CHARS_MAX) {
    throw new TraceReadError('too-large', `${basename(path)}: line ${lineNo} is ${text.length.toLocaleString('en-US')} characters long, more than the ${TRACE_LINE_CHARS_MAX.toLocaleString('en-US')} a trace line may have; it is not a trace outbox-sim wrote`);
  }
}

function badShape(path: string, lineNo: number, problem: string): TraceReadError {
  const what = lineNo === 1 ? 'line 1 (the header)' : `line ${lineNo}`;
  return new TraceReadError('bad-shape', `${basename(path)}: ${what} is not shaped as outbox-sim writes it (${problem}); the trace was edited or made by something else`);
}

/** What a header's version is instead of a number, in a few words (the value itself may be any size or depth). */
function kindOf(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}...` : value)}`;
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function notATrace(path: string, why: string): TraceReadError {
  return new TraceReadError('not-a-trace', `${basename(path)} is not a trace: ${why}; give the path of a .trace.jsonl file outbox-sim wrote`);
}

/**
 * The file as text. A trace is UTF-8 JSON lines, which never hold a raw
 * control character (JSON escapes them in strings), so bytes that do not
 * decode, or such a character, mean a binary file, not a damaged trace.
 */
function textOf(path: string, bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notATrace(path, 'it is not UTF-8 text (a binary file?)');
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Tab and carriage return are left to the JSON parser: a copy with CRLF line ends is still text.
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) throw notATrace(path, 'it holds control characters, as a binary file does (a trace is JSON lines)');
  }
  return text;
}

/** Reads and verifies a trace file. */
export function readTrace(path: string): Trace {
  if (!existsSync(path)) throw new TraceReadError('missing', `trace ${path} does not exist; give the path of a .trace.jsonl file`);
  let bytes: Buffer;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new TraceReadError('missing', `trace ${path} is not a file; give the path of a .trace.jsonl file`);
    if (stat.size > TRACE_BYTES_MAX) {
      throw new TraceReadError('too-large', `trace ${path} is ${MiB(stat.size)}, more than the ${MiB(TRACE_BYTES_MAX)} a trace may have; it is not a trace outbox-sim wrote`);
    }
    bytes = readFileSync(path);
  } catch (err) {
    if (err instanceof TraceReadError) throw err;
    throw new TraceReadError('missing', `trace ${path} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (bytes.length === 0) throw new TraceReadError('truncated', `${basename(path)} is empty; the trace is truncated`);
  const text = textOf(path, bytes);
  const endsClean = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsClean) lines.pop();
  // Blank lines after the last step (an editor or a paste that adds one) hold no step: they are not read as a
  // corrupt line. A blank line between steps still is (the step after it is out of place).
  while (lines.length > 1 && lines[lines.length - 1].trim() === '') lines.pop();
  // The header first: its version decides whether we can read the rest at all.
  let rawHeader: unknown;
  tooLong(path, lines[0], 1);
  try {
    rawHeader = JSON.parse(lines[0]);
  } catch {
    // Every line is a JSON object: a first line that does not open one is another kind of file, not a cut or damaged trace.
    if (!lines[0].startsWith('{')) throw notATrace(path, 'its first line is not JSON (a trace is JSON lines)');
    if (!endsClean && lines.length === 1) throw new TraceReadError('truncated', `${basename(path)} ends inside its header; the trace is truncated`);
    throw new TraceReadError('corrupt-line', `${basename(path)}: line 1 (the header) is not valid JSON; the trace is corrupt`);
  }
  // `null` or a number parses too: look into objects only.
  const h = (typeof rawHeader === 'object' && rawHeader !== null ? rawHeader : {}) as Partial<TraceHeader>;
  if (h.format !== TRACE_FORMAT_NAME) {
    throw new TraceReadError('corrupt-line', `${basename(path)}: line 1 is not an outbox-sim trace header`);
  }
  // A version of another type is an edited header, not a trace of another version: "version 1" would not say what is wrong.
  if (typeof h.version !== 'number') {
    throw new TraceReadError('bad-shape', `${basename(path)}: line 1 (the header) has a version that is not a number (${kindOf(h.version)}); this outbox-sim reads version ${TRACE_FORMAT_VERSION}, written as a number: the trace was edited or made by something else`);
  }
  if (h.version !== TRACE_FORMAT_VERSION) {
    // A header without the writer's version (edited, or made by something else) must not print "undefined".
    // Nor name this very version as the one to use: it writes TRACE_FORMAT_VERSION, so such a header was edited.
    const writer =
      typeof h.tool !== 'string' || h.tool === ''
        ? 'use the outbox-sim version that wrote it; the header does not say which'
        : h.tool === TOOL_VERSION
          ? `its header names this outbox-sim, ${h.tool}, which writes version ${TRACE_FORMAT_VERSION}: the trace was edited`
          : `use the outbox-sim version that wrote it, ${h.tool}`;
    throw new TraceReadError('unknown-version', `${basename(path)} is trace format version ${String(h.version)}; this outbox-sim reads version ${TRACE_FORMAT_VERSION} (${writer})`);
  }
  const budget = readBudget();
  const sealedHeader = parseSealed(path, lines[0], 1, budget);
  const headerShapeProblem = headerProblem(sealedHeader);
  if (headerShapeProblem !== null) throw badShape(path, 1, headerShapeProblem);
  const header = sealedHeader as unknown as TraceHeader;
  const steps: TraceStep[] = [];
  for (let i = 1; i < lines.length; i++) {
    const last = i === lines.length - 1;
    // A last line without its newline is read when it is whole (valid JSON, its checksum right): a copy or an editor
    // that drops the final newline loses nothing. A line cut short fails one or the other: the trace is truncated.
    const sealedStep = last && !endsClean ? lastLine(path, lines[i], i + 1, budget) : parseSealed(path, lines[i], i + 1, budget);
    const stepShapeProblem = stepProblem(sealedStep);
    if (stepShapeProblem !== null) throw badShape(path, i + 1, stepShapeProblem);
    const step = sealedStep as unknown as TraceStep;
    if (step.n !== i) throw new TraceReadError('corrupt-line', `${basename(path)}: line ${i + 1} is step ${String(step.n)}, expected ${i}; the trace is corrupt`);
    steps.push(step);
  }
  if (steps.length !== header.stepCount) {
    throw new TraceReadError('truncated', `${basename(path)} has ${steps.length} steps but its header declares ${header.stepCount}; the trace is truncated`);
  }
  const costly = rebuildTooCostly(steps);
  if (costly !== null) {
    throw new TraceReadError('too-large', `${basename(path)}: rebuilding its states would copy more than ${REBUILD_COPIES_MAX.toLocaleString('en-US')} entries (by step ${costly}); it is not a trace outbox-sim wrote`);
  }
  // The id is of the lines as written; an older trace's options are then read in today's shape.
  const id = traceId(header, steps);
  return { id, header: header.model === 'outbox' ? { ...header, options: currentOptions(header.options) } : header, steps };
}
