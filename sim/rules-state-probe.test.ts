/**
 * The probe for rule files whose decisions answer from more than their
 * arguments (rules-state-probe.ts): a pure rule file passes, one that draws
 * Math.random is refused in one line naming the seed, and a catalog rule set
 * is not probed (there is no file to import again). A rule file keeping a
 * module-level set is refused by the CLI in properties/broken-rules.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import failClosed from '../model/catalog/fail-closed.ts';
import { loadRules } from './rules-loader.ts';
import { probeState, refuseStatefulRules } from './rules-state-probe.ts';
import { UsageError } from './usage-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'outbox-sim-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A rule file holding `text`, loaded as a command loads it. */
async function loaded(name: string, text: string): Promise<{ path: string; rules: Awaited<ReturnType<typeof loadRules>> }> {
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, rules: await loadRules(path) };
}

describe('the probe for decisions that keep state or draw at random', () => {
  it('passes a rule file that answers from its arguments (a pure cache included)', async () => {
    const { path, rules } = await loaded(
      'pure.ts',
      `import { extendRules, failClosed } from 'outbox-sim';
const seen = new Map<string, string>();
export default extendRules(failClosed, {
  name: 'pure',
  summary: 'classify through a cache of its own answers',
  classify(reply) {
    const known = seen.get(reply) ?? failClosed.classify(reply);
    seen.set(reply, known);
    return known as ReturnType<typeof failClosed.classify>;
  },
});
`,
    );
    await expect(refuseStatefulRules(path, rules)).resolves.toBeUndefined();
  });

  it('refuses a rule file whose decision draws Math.random, in one line naming the seed', async () => {
    const { path, rules } = await loaded(
      'random.ts',
      `import { extendRules, failClosed } from 'outbox-sim';
export default extendRules(failClosed, {
  name: 'random',
  summary: 'takes a free claim, or gives up this pass, at random',
  mayClaim(claim) {
    return failClosed.mayClaim(claim) && Math.random() < 0.9;
  },
});
`,
    );
    let message = '';
    try {
      await refuseStatefulRules(path, rules);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      message = err.message;
    }
    expect(message).toMatch(/^rule set "random" \(.*random\.ts\): its decisions do not answer from their arguments alone: seed \d+ ran differently in two fresh copies of the file, .*no randomness or clock$/);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('does not probe a catalog rule set, and finds two runs of the same pure value equal', async () => {
    await expect(refuseStatefulRules('fail-closed', await loadRules('fail-closed'))).resolves.toBeUndefined();
    expect(probeState({ rules: [failClosed, failClosed], oldRules: null }, 4)).toBeNull();
  });
});
