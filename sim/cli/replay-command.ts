/**
 * `outbox-sim replay TRACE [--rules R] [--json]`: exit 0 when the trace
 * replays identically, 1 when it diverges, 2 on bad input. With `--rules`,
 * the recorded world is re-run under R: exit 1 when it still violates, 0 when
 * it no longer does.
 */
import { loadRules } from '../rules-loader.ts';
import { readTrace } from '../../traces/read.ts';
import { replayExactly, rerunTrace } from '../outbox/rerun-trace.ts';
import type { Io } from './io.ts';
import { terminalText } from './terminal-text.ts';

export async function replayCommand(path: string, flags: { rules?: string; json?: boolean }, io: Io): Promise<number> {
  const trace = readTrace(path);
  if (flags.rules === undefined) {
    const r = await replayExactly(trace);
    if (flags.json) io.out(JSON.stringify({ trace: trace.id, ...r }));
    else if (r.identical) io.out(`trace ${trace.id} replays identically: ${r.steps} steps${trace.header.violation ? `, ending in ${terminalText(trace.header.violation.property)}` : ''}`);
    else io.out(`trace ${trace.id} diverges at step ${r.step}: ${terminalText(r.why)}`);
    return r.identical ? 0 : 1;
  }
  const { rules } = await loadRules(flags.rules);
  const r = await rerunTrace(trace, rules);
  const verdict = r.violation !== null ? 'still violates' : 'no longer violates';
  if (flags.json) {
    io.out(JSON.stringify({ trace: trace.id, rules: rules.name, verdict, property: r.violation?.property ?? null, departedAt: r.departedAt, skipped: r.skipped, steps: r.steps }));
  } else {
    io.out(`trace ${trace.id} under ${terminalText(rules.name)}: ${verdict}${r.violation ? ` ${r.violation.property} (step ${r.violation.step}): ${terminalText(r.violation.detail)}` : ''}`);
    io.out(r.departedAt === null ? '  follows the recording to its end' : `  departs from the recording at step ${r.departedAt} (${terminalText(trace.steps[r.departedAt - 1]?.label ?? '?')}); ${r.skipped} recorded events were not enabled`);
  }
  return r.violation !== null ? 1 : 0;
}
