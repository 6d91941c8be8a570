/**
 * Start-up: a command loads its own code, not every command's. `outbox-sim
 * rules` must not load the simulator, the explorers, the event table or
 * the packages only they use (zod, xstate, piscina): main.ts imports each
 * command's module when that command runs. Observed with a module
 * resolution hook in a process of its own, on the sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-start-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records every module URL resolved (the hooks run on a thread of their own; a file collects the URLs). */
const HOOK = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.OUTBOX_SIM_LOADED, r.url + '\\n');
  return r;
}`;

/** The modules `main(argv)` loads, run from the sources (tsx) in a fresh process; and its exit code. */
function modulesLoaded(argv: readonly string[]): { urls: string[]; code: number } {
  const file = join(dir, `${argv.join('-')}.txt`);
  const main = pathToFileURL(join(process.cwd(), 'sim', 'cli', 'main.ts')).href;
  const script = [
    "import { register } from 'node:module';",
    "import { register as tsx } from 'tsx/esm/api';",
    'tsx();',
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`,
    `const { main } = await import(${JSON.stringify(main)});`,
    `const code = await main(${JSON.stringify(argv)}, { out: () => undefined, err: () => undefined, tty: false });`,
    'console.log(code);',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, OUTBOX_SIM_LOADED: file } });
  return { urls: readFileSync(file, 'utf8').split('\n').filter((l) => l !== ''), code: Number(out.trim()) };
}

describe('what a command loads', () => {
  it('rules loads commander and the catalog, not the simulator, the other commands, zod, xstate or piscina', () => {
    const { urls, code } = modulesLoaded(['rules']);
    expect(code).toBe(0);
    // The hook saw the command's own modules.
    expect(urls.some((u) => u.endsWith('/sim/cli/rules-command.ts'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/model/catalog/index.ts'))).toBe(true);
    const heavy = urls.filter((u) => /\/sim\/(core|outbox|workers)\/|\/sim\/cli\/(check|explore|replay|compare|diff|merge|show|recheck|receipts|statechart)-command\.ts$|\/sim\/cli\/help-contract\.ts$|\/model\/rule-contract\.ts$|\/node_modules\/(zod|xstate|piscina|cli-progress)\//.test(u));
    expect(heavy).toEqual([]);
  }, 60_000);
  it('--help loads every command for its contract (the defaults each command falls back to)', () => {
    const { urls, code } = modulesLoaded(['--help']);
    expect(code).toBe(0);
    expect(urls.some((u) => u.endsWith('/sim/cli/help-contract.ts'))).toBe(true);
  }, 60_000);
});
