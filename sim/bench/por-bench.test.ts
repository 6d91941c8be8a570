import { describe, expect, it } from 'vitest';
import { porSummary, type Timed } from './por-bench.ts';

const timed = (states: number, transitions: number, cpuSeconds: number): Timed => ({ states, transitions, complete: true, reduced: 0, cpuSeconds });

describe('porSummary', () => {
  it("says what the reduction saved in the rows' own figures: states per world, the CPU ratio and the transitions saved, as spans", () => {
    const text = porSummary([
      { engines: 2, sym: timed(1000, 3000, 0.1), both: timed(980, 2800, 0.2) },
      { engines: 3, sym: timed(5000, 20000, 1), both: timed(5000, 19000, 3) },
    ]);
    expect(text).toContain('states fewer by 2.0% at 2 engines, 0.0% at 3 engines');
    expect(text).toContain('at 2.0x to 3.0x the CPU');
    expect(text).toContain('transitions fewer by 5% to 7%');
  });

  it('gives one figure where the span has one value', () => {
    const text = porSummary([{ engines: 1, sym: timed(10, 10, 1), both: timed(10, 10, 1) }]);
    expect(text).toContain('0.0% at 1 engine,');
    expect(text).toContain('at 1.0x the CPU');
    expect(text).toContain('transitions fewer by 0%.');
  });
});
