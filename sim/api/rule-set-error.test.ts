/**
 * A broken decision rejects a library call with a RuleSetError: the command
 * line's line as its message, and as fields the rule set, the decision, how
 * it broke, where, and the trace leading to it; its cause is the RuleFault,
 * whose own cause is exactly what the decision threw.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { check, explore, replay, RuleFault, RuleSetError, UsageError } from './commands.ts';
import { extendRules, failClosed, type SelectView } from '../../model/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-rule-set-error-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const thrown = new Error('no selection today');
const broken = extendRules(failClosed, {
  name: 'broken-select',
  summary: 'fail-closed whose selectable always throws',
  selectable: (_record, _view: SelectView) => {
    throw thrown;
  },
});

/** What a call rejected with. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('the call resolved; a broken decision should reject it');
}

function expectBroken(err: unknown): RuleSetError {
  expect(err).toBeInstanceOf(RuleSetError);
  const e = err as RuleSetError;
  // Still a UsageError: code that caught bad input catches this too.
  expect(e).toBeInstanceOf(UsageError);
  expect(e.name).toBe('RuleSetError');
  expect(e.ruleSet).toContain('broken-select');
  expect(e.decision).toBe('selectable');
  expect(e.kind).toBe('threw');
  expect(e.detail).toContain('no selection today');
  expect(e.message.startsWith(`rule set ${e.ruleSet}: selectable ${e.detail}`)).toBe(true);
  expect(e.cause).toBeInstanceOf(RuleFault);
  expect((e.cause as RuleFault).cause).toBe(thrown);
  return e;
}

describe('a broken decision in a library call', () => {
  it('check: at the small world and depth it broke, with its trace', async () => {
    const e = expectBroken(await rejection(() => check({ rules: broken, seeds: 10, out: join(dir, 'check') })));
    expect(e.at).toEqual({ depth: expect.any(Number) as number, world: 'default' });
    expect(e.trace).not.toBeNull();
    expect(e.message).toContain(e.trace as string);
    expect(existsSync(e.trace as string)).toBe(true);
  });

  it('check --swarm-only: at the seed and step it broke, with its trace', async () => {
    const e = expectBroken(await rejection(() => check({ rules: broken, seeds: 10, swarmOnly: true, out: join(dir, 'swarm') })));
    expect(e.at).toEqual({ seed: expect.any(Number) as number, step: expect.any(Number) as number });
    const at = e.at as { seed: number; step: number };
    expect(e.message).toContain(`at seed ${at.seed}, step ${at.step}`);
    expect(existsSync(e.trace as string)).toBe(true);
  });

  it('explore: at the depth it broke', async () => {
    const e = expectBroken(await rejection(() => explore({ rules: broken, out: join(dir, 'explore') })));
    expect(e.at).toEqual({ depth: expect.any(Number) as number });
    expect(existsSync(e.trace as string)).toBe(true);
  });

  it('replay under it: the same fields, the command named, no trace written', async () => {
    const found = await explore({ rules: 'fresh-cycle', out: join(dir, 'found') });
    const trace = found.violations[0]?.path;
    expect(trace).toBeDefined();
    const e = expectBroken(await rejection(() => replay({ trace: trace as string, under: broken })));
    expect(e.trace).toBeNull();
    expect(e.message).toContain('(during replay)');
  });
});
