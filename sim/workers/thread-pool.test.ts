/**
 * The pool's threads never load their task file through `require()` of an ES
 * module (see `threadExecArgv` in thread-pool.ts): piscina tries `require()` first,
 * and two overlapping loads of one module that way can abort Node 20.
 */
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { NO_REQUIRE_ESM, threadExecArgv, withoutRefused } from './thread-pool.ts';
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

  it("leave out the flags Node refuses a thread, as Node's own refusal names them", () => {
    const argv = ['--stack-trace-limit=50', '--conditions=outbox', '--max-old-space-size=4096', NO_REQUIRE_ESM];
    let message = '';
    try {
      void new Worker('0', { eval: true, execArgv: argv }).terminate();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(withoutRefused(argv, message)).toEqual(['--conditions=outbox', NO_REQUIRE_ESM]);
    // A wording that names none of them keeps only the flag the pool adds.
    expect(withoutRefused(argv, 'refused')).toEqual([NO_REQUIRE_ESM]);
  });

  it('start under a process run with V8 flags (node --max-old-space-size=4096 ...), where they used to end check with a crash', () => {
    const r = spawnSync(process.execPath, ['--max-old-space-size=4096', '--stack-trace-limit=50', 'bin/outbox-sim.mjs', 'check', '--swarm-only', '--seeds', '600', '--workers', '2', '--quiet', '--out', 'traces/found'], { encoding: 'utf8' });
    expect(r.stderr).not.toMatch(/ERR_WORKER_INVALID_EXEC_ARGV/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/RESULT: no property violated/);
    expect(r.stdout).toMatch(/600 runs/);
  }, 60_000);
});
