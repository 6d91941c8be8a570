/**
 * Small things users trip on: `--quiet` leaves out the header lines and the
 * progress bar (only the summary), `NO_COLOR` (any non-empty value,
 * no-color.org) and `TERM=dumb` mean no escape sequence at all, and the
 * check summary says in words why one layer count can exceed another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LAYERS_EXPLAINED } from '../check-report.ts';
import { main } from './main.ts';
import { plainTerminal, progressBar } from './progress.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-quiet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** Runs the CLI as on a terminal (so a bar would be drawn), collecting both streams. */
async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, '--out', join(dir, 'found')], { out: (l) => out.push(l), err: (l) => err.push(l), tty: true });
  return { code, out, err };
}

/** A stream that looks like a terminal and keeps what is written to it. */
function fakeTerminal() {
  const written: string[] = [];
  const stream = Object.assign(
    { isTTY: true, columns: 80, write: (chunk: string) => (written.push(String(chunk)), true) },
    { on: () => stream, once: () => stream, emit: () => true, removeListener: () => stream },
  );
  return { stream: stream as unknown as NodeJS.WritableStream & { isTTY: boolean }, written };
}

describe('NO_COLOR and TERM=dumb', () => {
  it('any non-empty NO_COLOR, or TERM=dumb, asks for plain output; an empty NO_COLOR does not', () => {
    expect(plainTerminal({ NO_COLOR: '1' })).toBe(true);
    expect(plainTerminal({ NO_COLOR: 'false' })).toBe(true);
    expect(plainTerminal({ TERM: 'dumb' })).toBe(true);
    expect(plainTerminal({ NO_COLOR: '' })).toBe(false);
    expect(plainTerminal({ TERM: 'xterm-256color' })).toBe(false);
  });
  it('on a terminal the bar writes escape sequences; with NO_COLOR none: plain lines on stderr at every tenth', () => {
    const lines: string[] = [];
    const io = { out: () => undefined, err: (l: string) => lines.push(l), tty: true };
    const drawn = fakeTerminal();
    const bar = progressBar(io, 'seeds', 100, { env: {}, stream: drawn.stream });
    for (let i = 1; i <= 100; i++) bar.update(i);
    bar.stop();
    expect(drawn.written.join('')).toContain('\u001b[');

    const plain = fakeTerminal();
    const quietBar = progressBar(io, 'seeds', 100, { env: { NO_COLOR: '1' }, stream: plain.stream });
    for (let i = 1; i <= 100; i++) quietBar.update(i, 'x');
    quietBar.stop();
    expect(plain.written).toEqual([]);
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('seeds 10% | 10/100 | x');
    expect(lines.some((l) => l.includes('\u001b') || l.includes('\r'))).toBe(false);
  });
  it('check under NO_COLOR on a terminal: progress as plain lines, nothing with an escape', async () => {
    vi.stubEnv('NO_COLOR', '1');
    const r = await run('check', '--swarm-only', '--seeds', '30');
    expect(r.code).toBe(0);
    expect(r.err.some((l) => l.startsWith('seeds 100% | 30/30'))).toBe(true);
    expect([...r.out, ...r.err].join('\n')).not.toContain('\u001b');
  });
});

describe('--quiet', () => {
  it('check: no header lines and no progress, the summary unchanged', async () => {
    vi.stubEnv('NO_COLOR', '1'); // so that a bar, if drawn, would show in err
    const loud = await run('check', '--swarm-only', '--seeds', '30');
    const quiet = await run('check', '--swarm-only', '--seeds', '30', '--quiet');
    expect(quiet.code).toBe(loud.code);
    expect(loud.out[0]).toMatch(/^outbox-sim check: rules fail-closed; seeds 1\.\.30/);
    expect(loud.out.some((l) => l.startsWith('  swarm:'))).toBe(true);
    expect(loud.err.length).toBeGreaterThan(0);
    expect(quiet.err).toEqual([]);
    expect(quiet.out.some((l) => l.includes('swarm:') || l.includes('; seeds 1..30'))).toBe(false);
    const timeless = (lines: string[]) => lines.map((l) => l.replace(/[\d.]+ s$/, 'T s'));
    // The summary is the loud run's, less its two header lines.
    expect(timeless(quiet.out)).toEqual(timeless(loud.out.slice(2)));
  });
  it('explore: no header line and no search figures; how it ended is still said', async () => {
    const argv = ['explore', '--ids', '1', '--bodies', '1', '--engines', '1', '--crashes', '0', '--corruptions', '0', '--operator', '0'];
    const loud = await run(...argv);
    const quiet = await run(...argv, '--quiet');
    expect(quiet.code).toBe(loud.code);
    expect(loud.out[0]).toMatch(/^outbox-sim explore: rules/);
    expect(loud.out.some((l) => l.startsWith('  checked:'))).toBe(true);
    expect(quiet.out.some((l) => l.startsWith('outbox-sim explore') || l.startsWith('  checked:') || l.includes('bytes/state'))).toBe(false);
    expect(quiet.out).toEqual(loud.out.filter((l) => /^(RESULT|WARNING| {2}shortest| {2}replay| {2}--continue)/.test(l)));
    expect(quiet.out.some((l) => l.startsWith('RESULT:'))).toBe(true);
  });
});

describe('the check summary explains its layers', () => {
  it('says why deliveries reported can exceed bodies stored, on a run where they do', async () => {
    // At 1,000 seeds the runs report more deliveries than the broker stored bodies (at 200 the reverse: both happen).
    const json = await run('check', '--swarm-only', '--seeds', '1000', '--json');
    const layers = (JSON.parse(json.out.join('\n')) as { layers: { bodiesStored: number; deliveriesReported: number } }).layers;
    expect(layers.deliveriesReported).toBeGreaterThan(layers.bodiesStored);
    const text = (await run('check', '--swarm-only', '--seeds', '200', '--quiet')).out;
    const at = text.indexOf('Layers:');
    expect(at).toBeGreaterThan(0);
    expect(text.slice(at + 3, at + 3 + LAYERS_EXPLAINED.length)).toEqual([...LAYERS_EXPLAINED]);
    const words = LAYERS_EXPLAINED.join(' ').replace(/\s+/g, ' ');
    expect(words).toContain('the record written DELIVERED and its file archived are two reports of one delivery');
    expect(words).toContain('deliveries reported above bodies stored is expected');
  });
});
