/**
 * The options of the commands as functions are the command's flags,
 * camel-cased (options.ts): every flag that means something to a library
 * call is an option, and each works as its flag does (an audit found
 * `stopOnFirst`, `symmetry`, `sameBodies` and the world settings given on
 * their own ignored without a word); an option no command takes is refused
 * in one line naming it and the options there are (option-keys.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { check, diff, explore, replay } from './commands.ts';
import { COMMAND_LINE_ONLY, OPTION_KEYS, type CommandName } from './option-keys.ts';
import { buildProgram, programParts, type Io } from '../cli/main.ts';
import { runCli } from '../cli/test-cli.ts';
import { SETTINGS } from '../outbox/events/table.ts';
import { usageError } from '../test-usage-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A result without its timings and memory figures, which differ from run to run. */
function steady(o: object): unknown {
  return JSON.parse(JSON.stringify(o, (k, v: unknown) => (/^(seconds|statesPerSecond|resident.*|.*BytesPerState)$/.test(k) ? 0 : v)));
}

/** What `--json` printed, as an object. */
async function cliJson(...argv: string[]): Promise<object> {
  const r = await runCli(...argv, '--json');
  return JSON.parse(r.out[0]) as object;
}

describe('every flag is an option', () => {
  // A command's arguments are options too: replay's trace, compare's rules, diff's old and new.
  const ARGUMENTS: Record<CommandName, readonly string[]> = { check: [], explore: [], replay: ['trace'], compare: ['rules'], diff: ['old', 'new'] };

  it.each(Object.keys(ARGUMENTS) as CommandName[])('%s: each flag is the option of its camel-cased name, or one the command line keeps (and the other way round)', async (name) => {
    // The type outbox-sim/cli exports beside main(argv, io).
    const io: Io = { out: () => undefined, err: () => undefined, tty: false };
    const { program } = buildProgram(io, await programParts(name, false));
    const command = program.commands.find((c: Command) => c.name() === name);
    const flags = (command?.options ?? []).map((o) => o.attributeName());
    expect(flags.length).toBeGreaterThan(0);
    expect(flags.filter((f) => !OPTION_KEYS[name].includes(f) && COMMAND_LINE_ONLY[f] === undefined)).toEqual([]);
    // `settings` gives the settings' flags as one object.
    expect(OPTION_KEYS[name].filter((k) => !flags.includes(k) && !ARGUMENTS[name].includes(k) && k !== 'settings')).toEqual([]);
  });

  it('the world settings on their own are each setting the event table declares', () => {
    const settings = SETTINGS.map((s) => s.name);
    expect(settings.filter((s) => !OPTION_KEYS.check.includes(s) || !OPTION_KEYS.explore.includes(s))).toEqual([]);
  });
});

describe('each option works as its flag', () => {
  it('check: stopOnFirst is --stop-on-first', async () => {
    const out = join(dir, 'stop');
    const r = await check({ rules: 'fresh-cycle-after-definite', seeds: 300, swarmOnly: true, stopOnFirst: true, out });
    expect(r.stopped).toMatchObject({ reason: 'first-violation', seeds: 300 });
    expect(r.runs).toBeLessThan(300);
    expect(steady(r)).toEqual(steady(await cliJson('check', '--rules', 'fresh-cycle-after-definite', '--seeds', '300', '--swarm-only', '--stop-on-first', '--out', out)));
  });

  it('check: symmetry false is --no-symmetry', async () => {
    const out = join(dir, 'symmetry');
    const r = await check({ rules: 'fresh-cycle-after-definite', smallWorldsOnly: true, symmetry: false, out });
    expect(new Set(r.smallWorlds?.worlds.map((w) => w.symmetry))).toEqual(new Set([false]));
    expect(steady(r)).toEqual(steady(await cliJson('check', '--rules', 'fresh-cycle-after-definite', '--small-worlds-only', '--no-symmetry', '--out', out)));
  });

  it('check and explore: a world setting on its own is its flag, as settings: { ... } gives it', async () => {
    const out = join(dir, 'settings');
    const flat = await check({ seeds: 40, swarmOnly: true, broker: 'id-ok', dedupeWindow: 2, out });
    expect(steady(flat)).toEqual(steady(await check({ seeds: 40, swarmOnly: true, broker: 'id-ok', settings: { dedupeWindow: 2 }, out })));
    expect(steady(flat)).toEqual(steady(await cliJson('check', '--seeds', '40', '--swarm-only', '--broker', 'id-ok', '--dedupe-window', '2', '--out', out)));
    expect(steady(flat)).not.toEqual(steady(await check({ seeds: 40, swarmOnly: true, broker: 'id-ok', out })));
    const world = { ids: 1, bodies: 1, engines: 1, out };
    const windowed = await explore({ ...world, dedupeWindow: 2 });
    expect(windowed.states).not.toBe((await explore(world)).states);
    expect(steady(windowed)).toEqual(steady(await cliJson('explore', '--ids', '1', '--bodies', '1', '--engines', '1', '--dedupe-window', '2', '--out', out)));
    expect(await usageError(check({ dedupeWindow: 2, settings: { dedupeWindow: 3 } }))).toBe('dedupeWindow is given twice, as an option and in settings: give it once');
    await expect(check({ lease: 2, swarmOnly: true })).rejects.toThrow('--lease needs a clock: give --ticks N too');
  });

  it('explore: longIds is --long-ids', async () => {
    const out = join(dir, 'long');
    const long = await explore({ rules: 'fresh-cycle', ids: 2, bodies: 2, engines: 1, longIds: true, out });
    expect(JSON.stringify(long.violations)).toContain('eu-west-1.tenant-4');
    expect(steady(long)).toEqual(steady(await cliJson('explore', '--rules', 'fresh-cycle', '--ids', '2', '--bodies', '2', '--engines', '1', '--long-ids', '--out', out)));
  });

  it('explore and diff: sameBodies is --same-bodies', async () => {
    const out = join(dir, 'same');
    const world = ['--ids', '2', '--bodies', '2', '--engines', '1', '--out', out];
    const same = await explore({ rules: 'fresh-cycle', ids: 2, bodies: 2, engines: 1, sameBodies: true, out });
    // The counterexample differs from the one of distinct bodies: its world gives both ids the same bodies.
    expect(same.violations[0].trace).not.toBe((await explore({ rules: 'fresh-cycle', ids: 2, bodies: 2, engines: 1, out })).violations[0].trace);
    expect(steady(same)).toEqual(steady(await cliJson('explore', '--rules', 'fresh-cycle', ...world, '--same-bodies')));
    const d = await diff({ old: 'fail-closed', new: 'fresh-cycle', ids: 2, bodies: 2, engines: 1, sameBodies: true, out });
    expect(steady(d)).toEqual(steady(await cliJson('diff', 'fail-closed', 'fresh-cycle', ...world, '--same-bodies')));
    expect(steady(d)).not.toEqual(steady(await cliJson('diff', 'fail-closed', 'fresh-cycle', ...world)));
  });
});

describe('bad options: one line that says what to give', () => {
  // Calls as JavaScript makes them: no type checker stands between a caller and the options.
  const untyped = (f: (o: never) => Promise<unknown>, o?: unknown): Promise<unknown> => (f as (o?: unknown) => Promise<unknown>)(o);

  it('an option the command does not take is refused by name, with the options there are', async () => {
    const message = await usageError(untyped(check, { dedupeWindo: 2 }));
    expect(message).toBe(`check: unknown option "dedupeWindo"; the options are ${OPTION_KEYS.check.join(', ')}`);
    expect(await usageError(untyped(explore, { seeds: 3 }))).toMatch(/^explore: unknown option "seeds"; the options are rules, oldRules, ids, /);
    expect(await usageError(untyped(check, { json: true }))).toMatch(/^check: json is the command line's only \(a function resolves to the object --json prints\); the options are /);
    expect(await usageError(untyped(diff, { old: 'fail-closed', new: 'fresh-cycle', seeds: 3 }))).toMatch(/^diff: unknown option "seeds"/);
    expect(await usageError(untyped(check, 'fail-closed'))).toBe('check takes an options object (or none), not a string');
  });

  it('a switch given other than true or false, and a shard given as the flag spells it, are refused', async () => {
    expect(await usageError(untyped(explore, { symmetry: 'false' }))).toBe('explore: symmetry is true or false, not "false"');
    expect(await usageError(untyped(check, { swarmOnly: 0 }))).toBe('check: swarmOnly is true or false, not 0');
    expect(await usageError(untyped(check, { shard: '1/2' }))).toBe('check: shard is { index, count } (index from 1 to count), not "1/2": --shard 1/2 is shard: { index: 1, count: 2 }');
  });

  it('a missing option that the command needs is named', async () => {
    expect(await usageError(untyped(replay))).toBe("replay takes an options object with trace: the path of a .trace.jsonl file, e.g. replay({ trace: 'traces/found/<id>.trace.jsonl' })");
    expect(await usageError(untyped(replay, {}))).toMatch(/^replay needs trace: the path of a \.trace\.jsonl file/);
    expect(await usageError(untyped(diff, { old: 'fail-closed' }))).toBe("diff needs new: the proposed rule set, e.g. diff({ old: 'fail-closed', new: './rules/mine.ts' })");
  });
});
