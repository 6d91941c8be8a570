/**
 * Rule files as users keep them: in a folder of their own outside this
 * checkout, with no package.json or with `npm init -y`'s, ESM or CommonJS
 * syntax, any of the usual extensions; `outbox-sim` resolves to the running
 * one (the same module instances). A compile error says file:line:column. A
 * file checked against a recorded hash is not run when the hash differs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogRules } from '../model/catalog/index.ts';
import { unguarded } from '../model/rule-contract.ts';
import { fileHash, loadRules } from './rules-loader.ts';
import { usageError } from './test-usage-error.ts';
import { UsageError } from './usage-error.ts';

const outside = mkdtempSync(join(tmpdir(), 'outbox-sim-rules-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

const ESM = `import { extendRules, failClosed, type RuleSet } from 'outbox-sim';
const mine: RuleSet = extendRules(failClosed, { name: 'esm-rules', summary: 'fail-closed by another name' });
export default mine;
`;
const ESM_JS = `import { extendRules, failClosed } from 'outbox-sim';
export default extendRules(failClosed, { name: 'esm-rules', summary: 'fail-closed by another name' });
`;
const CJS = `const { extendRules, failClosed } = require('outbox-sim');
module.exports = extendRules(failClosed, { name: 'cjs-rules', summary: 'fail-closed by another name' });
`;
/** What `npm init -y` writes (recent npm adds "type": "commonjs"). */
const NPM_INIT = { name: 'my-rules', version: '1.0.0', main: 'index.js', scripts: { test: 'echo "Error: no test specified" && exit 1' }, keywords: [], author: '', license: 'ISC', type: 'commonjs', description: '' };

/** A folder outside the checkout holding `files` (and a package.json when given). */
function folder(name: string, files: Record<string, string>, packageJson?: object): string {
  const dir = join(outside, name);
  mkdirSync(dir, { recursive: true });
  if (packageJson !== undefined) writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}

describe('a rule file outside the checkout', () => {
  const layouts: [string, object | undefined][] = [
    ['no package.json', undefined],
    ["npm init -y's package.json", NPM_INIT],
    ['a package.json of type module', { name: 'mine', type: 'module' }],
  ];
  const files: [string, string, string][] = [
    ['rules.ts', ESM, 'esm-rules'],
    ['rules.mts', ESM, 'esm-rules'],
    ['rules.cts', CJS, 'cjs-rules'],
    ['cjs-syntax.ts', CJS, 'cjs-rules'],
    ['rules.mjs', ESM_JS, 'esm-rules'],
    ['rules.cjs', CJS, 'cjs-rules'],
    ['rules.js', ESM_JS, 'esm-rules'],
  ];
  describe.each(layouts)('with %s', (label, pkg) => {
    const dir = folder(label.replace(/\W+/g, '-'), Object.fromEntries(files.map(([f, text]) => [f, text])), pkg);
    it.each(files)('%s loads, on the running outbox-sim', async (file, _text, name) => {
      const loaded = await loadRules(join(dir, file));
      expect(loaded.rules.name).toBe(name);
      // extendRules kept fail-closed's decisions: the very functions of this process's catalog.
      expect(unguarded(loaded.rules).classify).toBe(catalogRules('fail-closed')?.classify);
      expect(loaded.origin).toMatchObject({ name, hash: fileHash(join(dir, file)) });
    });
  });

  it("gets this process's module instances: its failClosed is the catalog's", async () => {
    const dir = folder('identity', { 'same.ts': "import { failClosed } from 'outbox-sim';\nexport default failClosed;\n" });
    expect(unguarded((await loadRules(join(dir, 'same.ts'))).rules)).toBe(catalogRules('fail-closed'));
  });

  it('imports files of its own beside it', async () => {
    const dir = folder('helpers', {
      'names.ts': "export const NAME = 'from-a-helper';\n",
      'main.ts': "import { extendRules, failClosed } from 'outbox-sim';\nimport { NAME } from './names.ts';\nexport default extendRules(failClosed, { name: NAME, summary: 's' });\n",
    });
    expect((await loadRules(join(dir, 'main.ts'))).rules.name).toBe('from-a-helper');
  });

  it('records its path relative to the folder the command runs in', async () => {
    const dir = folder('relative', { 'r.ts': ESM });
    const { origin } = await loadRules(join(dir, 'r.ts'));
    expect(origin.source.startsWith('./') || origin.source.startsWith('../')).toBe(true);
    expect(origin.source.endsWith('/relative/r.ts')).toBe(true);
  });
});

describe('errors say where', () => {
  it('a syntax error is file:line:column and the compiler message', async () => {
    const dir = folder('syntax', { 'bad.ts': "import { failClosed } from 'outbox-sim';\n\nexport default { ...failClosed, name: 'bad' \n" });
    const msg = await usageError(loadRules(join(dir, 'bad.ts')));
    expect(msg).toMatch(/^rule file does not compile: \S*\/syntax\/bad\.ts:4:1: Expected "}" but found end of file$/);
    expect(msg).not.toContain('Transform failed');
  });
  it('an error in a file it imports names that file', async () => {
    const dir = folder('syntax-helper', { 'h.ts': 'export const x = ;\n', 'main.ts': "import { x } from './h.ts';\nexport default x;\n" });
    expect(await usageError(loadRules(join(dir, 'main.ts')))).toMatch(/\/syntax-helper\/h\.ts:1:18: Unexpected ";"$/);
  });
  it('an import outbox-sim does not export is named', async () => {
    const dir = folder('no-export', { 'r.ts': "import { noSuchThing } from 'outbox-sim';\nexport default noSuchThing;\n" });
    expect(await usageError(loadRules(join(dir, 'r.ts')))).toMatch(/\/no-export\/r\.ts:1:10: No matching export in "outbox-sim" for import "noSuchThing"$/);
  });
  it('a subpath of outbox-sim is not exported', async () => {
    const dir = folder('subpath', { 'r.ts': "import { x } from 'outbox-sim/model/rules.ts';\nexport default x;\n" });
    expect(await usageError(loadRules(join(dir, 'r.ts')))).toContain("'outbox-sim/model/rules.ts' is not exported by outbox-sim");
  });
  it("a stack through the user's code names their file and line (under tsx, as the CLI runs)", () => {
    const dir = folder('stack', {
      'r.ts': "import { extendRules, failClosed } from 'outbox-sim';\n\nfunction boom(): never {\n  throw new Error('blew up');\n}\nexport default extendRules(failClosed, { name: 's', summary: 's', classify: () => boom() });\n",
      // unguarded: the user's own function, whose stack the guard's one-line fault would not show.
      'call.mts': `import { loadRules } from ${JSON.stringify(pathToFileURL(resolve('sim/rules-loader.ts')).href)};\nimport { unguarded } from ${JSON.stringify(pathToFileURL(resolve('model/rule-contract.ts')).href)};\nconst { rules } = await loadRules(process.argv[3]);\ntry {\n  unguarded(rules).classify({} as never);\n} catch (e) {\n  console.log((e as Error).stack);\n}\n`,
    });
    // .mts: a module wherever it sits (it awaits at top level).
    const r = spawnSync(process.execPath, [resolve('bin/run-ts.mjs'), join(dir, 'call.mts'), join(dir, 'r.ts')], { encoding: 'utf8' });
    expect(r.stdout).toContain('blew up');
    expect(r.stdout).toContain(`at boom (${join(dir, 'r.ts')}:4:9)`);
  });
  it('a file that throws while loading gives its message, and the error as the cause (for a library caller)', async () => {
    const dir = folder('throws', { 'r.ts': "throw new Error('not today');\n" });
    expect(await usageError(loadRules(join(dir, 'r.ts')))).toMatch(/failed to load: not today$/);
    const err: unknown = await loadRules(join(dir, 'r.ts')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(((err as UsageError).cause as Error).message).toBe('not today');
  });
});

describe('a file checked against a recorded hash', () => {
  it('is not run when its content differs from the recording', async () => {
    const marker = join(outside, 'ran.marker');
    const dir = folder('hash', { 'r.ts': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n${ESM}` });
    const msg = await usageError(loadRules(join(dir, 'r.ts'), { name: 'esm-rules', source: './r.ts', hash: '0123456789abcdef' }));
    expect(msg).toContain('is not the one the trace was recorded with');
    expect(existsSync(marker)).toBe(false);
    // With the right hash it runs (so the marker above would have shown a run).
    await loadRules(join(dir, 'r.ts'), { name: 'esm-rules', source: './r.ts', hash: fileHash(join(dir, 'r.ts')) });
    expect(existsSync(marker)).toBe(true);
  });
});
