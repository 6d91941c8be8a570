/**
 * `outbox-sim statechart --format json|mermaid [--out FILE]`: the lifecycle
 * statechart for tools outside the simulator. `json` is the machine config
 * (XState's `createMachine` config, which Stately's visual editor imports);
 * `mermaid` is a `stateDiagram-v2` to paste in a pull request. The structure
 * is the same under every rule set (a rule set supplies the guards' and
 * actions' decisions, named in both formats). Prints to stdout, or writes
 * FILE atomically.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { lifecycleMachine } from '../../model/lifecycle.ts';
import { machineConfig, mermaidStatechart } from '../../model/statechart-export.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { choiceFlag } from './errors.ts';
import type { Io } from './io.ts';
import { checkOutputFile } from './output-place.ts';
import { UsageError } from '../usage-error.ts';

/** The formats `statechart` writes. */
export const STATECHART_FORMATS = ['json', 'mermaid'] as const;

/** The statechart in `format`, ending with a newline. */
export function renderStatechart(format: (typeof STATECHART_FORMATS)[number]): string {
  return format === 'json' ? `${JSON.stringify(machineConfig(lifecycleMachine), null, 2)}\n` : `${mermaidStatechart(lifecycleMachine)}\n`;
}

/** Exit 0; a bad flag or an --out that cannot be written throws {@link UsageError} (exit 2). */
export function statechartCommand(flags: { format?: string; out?: string }, io: Io): number {
  const format = choiceFlag('--format', flags.format, STATECHART_FORMATS, 'json');
  if (flags.out !== undefined) checkOutputFile('--out', flags.out);
  const text = renderStatechart(format);
  if (flags.out === undefined) {
    io.out(text.replace(/\n$/, ''));
    return 0;
  }
  try {
    mkdirSync(dirname(flags.out), { recursive: true });
    writeFileAtomic(flags.out, text);
  } catch (err) {
    throw new UsageError(`--out ${flags.out} cannot be written: ${err instanceof Error ? err.message : String(err)}`);
  }
  io.err(`wrote the lifecycle statechart (${format}) to ${flags.out}`);
  return 0;
}
