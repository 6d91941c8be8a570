/**
 * The bundle made beside the command thread: taken for the files as they
 * were bundled, once; refused when the rule file or a file it imports
 * changed, and when no bundle could be made.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { askBundlesOn, bundleMadeBeside, bundlesForThread, ruleFilesIn } from './rules-prebundle.ts';
import { lastInputsOf } from './rules-bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'prebundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A rule file importing a helper of its own, written afresh under `name`. */
function ruleFile(name: string): { path: string; helper: string } {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  const helper = join(at, 'helper.ts');
  const path = join(at, 'rules.ts');
  writeFileSync(helper, `export const label = '${name}';\n`);
  writeFileSync(path, `import { failClosed, extendRules } from 'outbox-sim';\nimport { label } from './helper.ts';\nexport default extendRules(failClosed, { name: label });\n`);
  return { path, helper };
}

describe('a rule file bundled beside the command thread (rules-prebundle.ts)', () => {
  it('names the rule files of a command line that are files', () => {
    const { path } = ruleFile('named');
    expect(ruleFilesIn(['check', '--rules', path, '--out', join(dir, 'x.json'), '--old-rules', join(dir, 'missing.ts')])).toEqual([path]);
    expect(ruleFilesIn(['check', `--rules=${path}`])).toEqual([path]);
  });

  it('is taken once, with the files it was made from, while they hold the same bytes', async () => {
    const { path, helper } = ruleFile('taken');
    askBundlesOn(bundlesForThread([path]).port);
    const got = await bundleMadeBeside(path, readFileSync(path));
    expect(got?.url).toMatch(/rules-[0-9a-f]+\.mjs$/);
    expect([...(got?.inputs ?? [])].sort()).toEqual([helper, path].sort());
    // A second ask (a re-bundle after a save) is the thread's own.
    expect(await bundleMadeBeside(path, readFileSync(path))).toBeNull();
    expect(lastInputsOf(path)).toContain(helper);
  });

  it('is refused when the rule file changed since', async () => {
    const { path } = ruleFile('edited');
    const beside = bundlesForThread([path]);
    askBundlesOn(beside.port);
    await beside.made;
    expect(await bundleMadeBeside(path, Buffer.from(`${readFileSync(path, 'utf8')}// saved again\n`))).toBeNull();
  });

  it('is refused when a file it imports changed since', async () => {
    const { path, helper } = ruleFile('import-edited');
    const beside = bundlesForThread([path]);
    askBundlesOn(beside.port);
    await beside.made;
    writeFileSync(helper, `export const label = 'changed';\n`);
    expect(await bundleMadeBeside(path, readFileSync(path))).toBeNull();
  });

  it('is none for a file that does not compile', async () => {
    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, 'export default {\n');
    askBundlesOn(bundlesForThread([broken]).port);
    expect(await bundleMadeBeside(broken, readFileSync(broken))).toBeNull();
  });
});
