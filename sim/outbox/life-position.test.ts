/**
 * A decision broken past a seed's run (life-position.ts): a janitor that
 * tombstones READY records past 5 attempts leaves a pending record without
 * its body, which only a record taken round its cycle past 5 attempts meets
 * (deep cycles). The check reports it as it reports a break in a run, the
 * rule file's fault with exit 2 and the trace of the steps before it, which
 * replays to it; before, it ended as an internal error with no verdict.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import failClosed from '../../model/catalog/fail-closed.ts';
import { guardRules } from '../../model/rule-contract.ts';
import { extendRules } from '../../model/rules.ts';
import { BOUNDS_DEFAULT, runShard } from '../check.ts';

const FILE = 'properties/broken-rules/sweep-pending-tombstone.ts';
/** The file's rule set, as it declares it (sim/ imports no rule file of properties/broken-rules: the CLI loads it below). */
const sweepPendingTombstone = extendRules(failClosed, {
  name: 'sweep-pending-tombstone',
  summary: 'fail-closed, but its sweeper also tombstones READY records past 5 attempts that are not in flight',
  sweepable: (record) => (record.status === 'DELIVERED' && typeof record.payload === 'string') || (record.status === 'READY' && record.attempts >= 5 && record.inFlight !== true),
});
/** The first seed whose deep cycles meet the break (`check --rules` with this file stops there). */
const SEED = 139;

mkdirSync('.tmp-test', { recursive: true });
const tmp = mkdtempSync(join('.tmp-test', 'life-position-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[]) => spawnSync(process.execPath, ['bin/outbox-sim.mjs', ...args], { encoding: 'utf8' });

describe('a decision broken in long life or a deep cycle', () => {
  it('is the shard\'s fault, placed after the events to it in the world of raised budgets it broke in', () => {
    // As check runs a file that extends fail-closed: the upgrade from it in the seeds that draw skew (this one does).
    // Guarded as a loaded rule file is (rule-contract.ts): its envelope without a body is a broken contract.
    const r = runShard({ rules: guardRules(sweepPendingTombstone), oldRules: failClosed, skewDrawn: true, seedStart: SEED, seeds: 1, broker: null, bounds: BOUNDS_DEFAULT }, SEED, SEED + 1);
    const fault = r.fault;
    expect(fault?.longLife).toBe(true);
    expect(fault?.decision).toBe('envelope');
    expect(fault?.step).toBe((fault?.events.length ?? 0) + 1);
    // Past the seed's own run, in a world whose budgets deep cycles raised past a bound traces had (1,000): its trace replays below.
    expect(fault?.options.operatorActionsMax).toBeGreaterThan(1000);
  });

  it('ends the check with exit 2 and one line saying so, and its trace replays to the break', () => {
    const out = join(tmp, 'out');
    const check = cli(['check', '--rules', FILE, '--swarm-only', '--seed', String(SEED), '--quiet', '--out', out]);
    expect(check.status, check.stderr).toBe(2);
    const line = check.stderr.trimEnd();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(new RegExp(`envelope returned .+; at seed ${SEED}, step \\d+ \\(past the seed's run: a record's cycle taken again in a world of raised budgets, long life or deep cycles\\)`));
    const trace = /: (\S+\.trace\.jsonl)$/.exec(line)?.[1] as string;
    const replay = cli(['replay', trace, '--rules', FILE]);
    expect(replay.status, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/replays identically: \d+ steps, stopping before a broken decision/);
  });
});
