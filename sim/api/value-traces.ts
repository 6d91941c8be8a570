/**
 * A trace recorded from a rule set given as a value (`check({ rules: mine })`)
 * names no file: its header's rule source is `in-process` (sim/rule-values.ts)
 * with no content hash, so no file can be checked against it and an exact
 * replay is refused. The library, where such traces come from, says what
 * replays it instead: `under` with that rule set.
 */
import { readFileSync } from 'node:fs';
import type { TraceHeader } from '../trace-format.ts';
import { IN_PROCESS } from '../rule-values.ts';
import { terminalText } from '../terminal-text.ts';
import { UsageError } from '../usage-error.ts';

/** The refusal of an exact replay of `path`, with its remedy, when `err` refused it and the trace's rule set was a value; else null. */
export function valueTraceRefusal(path: string, err: unknown): UsageError | null {
  if (!(err instanceof UsageError)) return null;
  let name: string;
  try {
    // Line 1, the header, read only once the replay is refused; a file that is no trace was refused for that already.
    const [header] = readFileSync(path, 'utf8').split('\n', 1);
    const { rules } = JSON.parse(header) as Partial<TraceHeader>;
    if (rules?.source !== IN_PROCESS) return null;
    name = terminalText(rules.name);
  } catch {
    return null;
  }
  return new UsageError(`the trace was recorded from the rule set ${name} given as a value, not from a file, so it cannot be replayed exactly: pass under with that rule set, replay({ trace, under: theRuleSet }), or with the path of the file that exports it`);
}
