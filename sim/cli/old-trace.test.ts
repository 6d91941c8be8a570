/**
 * A trace written before the weights were kept by kind name (weights by
 * position, the dedupe window at the top level; a corpus trace of fresh-cycle
 * under a dedupe window of 2) is still read, shown and replayed identically.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './test-cli.ts';

const OLD = 'traces/fixtures/positional-weights-886ddaaa75d0.trace.jsonl';

describe('a trace in the old options shape', () => {
  it('replays identically', async () => {
    const r = await runCli('replay', OLD);
    expect(r.out[0]).toContain('trace 886ddaaa75d0 replays identically');
    expect(r.code).toBe(0);
  });

  it('is re-run under other rules', async () => {
    const r = await runCli('replay', OLD, '--under', 'fail-closed');
    expect(r.code).toBe(0);
  });
});
