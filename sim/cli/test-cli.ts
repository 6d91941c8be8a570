/**
 * Tests' way into the CLI in-process: runs `main` with streams that collect
 * lines, no terminal, and returns the exit code with what was printed.
 */
import { main } from './main.ts';

/** What one in-process command printed, and its exit code. */
export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

/** Runs `outbox-sim ...argv` in this process. */
export async function runCli(...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), tty: false });
  return { code, out, err };
}
