/**
 * `outbox-sim statechart --format json|mermaid [--out FILE]`: the lifecycle
 * statechart for tools outside the simulator. `json` is the machine config
 * (XState's `createMachine` config, which Stately's visual editor imports);
 * `mermaid` is a `stateDiagram-v2` to paste in a pull request. The structure
 * is the same under every rule set (a rule set supplies the guards' and
 * actions' decisions, named in both formats). Prints to stdout, or writes
 * FILE atomically.
 */
import { lifecycleMachine } from '../../model/lifecycle.ts';
import { machineConfig, mermaidStatechart } from '../../model/statechart-export.ts';
import { choiceFlag } from './errors.ts';
import type { Io } from './io.ts';
import { checkOutputFile, emitDocument } from './output-place.ts';

/** The formats `statechart` writes. */
export const STATECHART_FORMATS = ['json', 'mermaid'] as const;

/** The statechart in `format`, ending with a newline. */
export function renderStatechart(format: (typeof STATECHART_FORMATS)[number]): string {
  return format === 'json' ? `${JSON.stringify(machineConfig(lifecycleMachine), null, 2)}\n` : `${mermaidStatechart(lifecycleMachine)}\n`;
}

/**
 * The format an --out FILE's name asks for, when --format is not given: a
 * `.mmd` or `.mermaid` file is meant for Mermaid, and was written as JSON.
 */
function formatOfName(out: string | undefined): (typeof STATECHART_FORMATS)[number] {
  return out !== undefined && /\.(mmd|mermaid)$/i.test(out) ? 'mermaid' : 'json';
}

/** Exit 0; a bad flag or an --out that cannot be written throws {@link UsageError} (exit 2). */
export function statechartCommand(flags: { format?: string; out?: string }, io: Io): number {
  const format = choiceFlag('--format', flags.format, STATECHART_FORMATS, formatOfName(flags.out));
  if (flags.out !== undefined) checkOutputFile('--out', flags.out);
  const text = renderStatechart(format);
  emitDocument(text, flags.out, io, `the lifecycle statechart (${format})`);
  return 0;
}
