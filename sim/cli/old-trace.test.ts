/**
 * A trace written before the weights were kept by kind name (weights by
 * position, the dedupe window at the top level; a corpus trace of fresh-cycle
 * under a dedupe window of 2) is still read, shown and replayed identically.
 * Its steps were re-recorded once (header kept in the old shape) when fresh
 * cycles began writing the base rule set's declared flags (`unknownSeen`) in
 * every record they write; the events, choices and violation are the same.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './test-cli.ts';

const OLD = 'traces/fixtures/positional-weights-f41167e7fe15.trace.jsonl';

describe('a trace in the old options shape', () => {
  it('replays identically', async () => {
    const r = await runCli('replay', OLD);
    expect(r.out[0]).toContain('trace f41167e7fe15 replays identically');
    expect(r.code).toBe(0);
  });

  it('is re-run under other rules', async () => {
    const r = await runCli('replay', OLD, '--under', 'fail-closed');
    expect(r.code).toBe(0);
  });
});
