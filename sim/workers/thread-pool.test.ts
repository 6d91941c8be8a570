/**
 * The pool's threads never load their task file through `require()` of an ES
 * module (see `threadExecArgv` in thread-pool.ts): piscina tries `require()` first,
 * and two overlapping loads of one module that way can abort Node 20.
 */
import { describe, expect, it } from 'vitest';
import { NO_REQUIRE_ESM, threadExecArgv } from './thread-pool.ts';
import { firstMessage } from './test-first-message.ts';

/** What `require()` of the check worker's own entry gives in a thread started with `execArgv`. */
function requireInThread(execArgv: string[]): Promise<string> {
  const entry = new URL('./check-worker.mjs', import.meta.url).pathname;
  const code = `const { parentPort } = require('node:worker_threads');
let r;
try { require(${JSON.stringify(entry)}); r = 'loaded'; } catch (e) { r = e.code; }
parentPort.postMessage(r);`;
  return firstMessage<string>(code, execArgv);
}

describe('pool threads', () => {
  it("keep the process's flags and add the one that turns require() of ES modules off, where Node knows it", () => {
    const argv = threadExecArgv();
    expect(argv.slice(0, process.execArgv.length)).toEqual(process.execArgv);
    expect(argv.includes(NO_REQUIRE_ESM)).toBe(process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM));
  });

  it('refuse require() of an ES module at once, so piscina loads it by import() only', async () => {
    expect(await requireInThread(threadExecArgv())).toBe('ERR_REQUIRE_ESM');
  });
});
