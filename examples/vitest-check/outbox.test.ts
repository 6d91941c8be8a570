import { describe, expect, it } from 'vitest';
import { check, explore, replay } from 'outbox-sim';
import { expectHolds, failuresOf, outboxMatchers } from 'outbox-sim/vitest';

// The matcher form of expectHolds; importing outbox-sim/vitest adds it to vitest's types.
expect.extend(outboxMatchers);

describe('our outbox rules', () => {
  it('hold in 300 seeded worlds full of faults', async () => {
    const report = await check({ rules: './rules/our-rules.ts', seeds: 300 });
    // On a violation this fails with its summary, the trace's path and the command that replays it.
    expectHolds(report);
    expect(report.runs).toBe(300);
  });

  it('hold in every state of a small world (a proof for that world)', async () => {
    const search = await explore({ rules: './rules/our-rules.ts', ids: 1, bodies: 2, engines: 1 });
    expect(search).toHoldEveryProperty({ proof: true });
  });

  it('a mistake is caught, with a trace that replays', async () => {
    const report = await check({ rules: './rules/corrupt-as-absent.ts', seeds: 100 });
    expect(() => expectHolds(report)).toThrow(/\n {2}replay: npx outbox-sim replay \S+ --rules \.\/rules\/corrupt-as-absent\.ts/);
    // Every failure, the small worlds' first: report.violations lists the swarm's only, and may be empty when the small worlds found the flaw.
    const first = failuresOf(report)[0];
    expect(await replay({ trace: first.path, rules: './rules/corrupt-as-absent.ts' })).toMatchObject({ identical: true });
  });
});
