/**
 * What a rule file prints goes to stderr. A command's stdout is its report,
 * and with `--json` one JSON document a pipeline parses: a `console.log` in a
 * user's rule file (a debugging line at its top level, a trace of each call)
 * went there too and broke it. The threads that load rule files (the
 * supervised command's thread, and `check --workers N`'s worker threads)
 * call this first; the tool's own output is written through its `Io`
 * (cli/io.ts), never through `console`.
 */
import { inspect, type InspectOptions } from 'node:util';

export function ruleOutputToStderr(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dir = (item: unknown, options?: InspectOptions): void => {
    process.stderr.write(`${inspect(item, options)}\n`);
  };
}
