/**
 * The schema library (zod) as the bundles carry it: the decisions' contract
 * and the trace reader import it as a namespace, so that esbuild keeps only
 * the schemas they use and the English messages. Imported as `{ z }`, the
 * namespace object was kept whole, every locale with it: 0.76 MB of the CLI's
 * JavaScript, loaded by every rule-file command and every trace it reads
 * (docs/performance.md, 'Start-up').
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Bytes of each zod source file in the bundle of `entry`, after tree-shaking. */
async function zodBytes(entry: string): Promise<Map<string, number>> {
  const out = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', logLevel: 'silent', outdir: 'out' });
  const bytes = new Map<string, number>();
  for (const output of Object.values(out.metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) if (path.includes('node_modules/zod/') && input.bytesInOutput > 0) bytes.set(path, input.bytesInOutput);
  }
  return bytes;
}

describe('the schema library in a bundle', () => {
  for (const entry of ['model/rule-contract.ts', 'traces/shape.ts']) {
    it(`${entry}: the schemas and English messages only, no other locale`, async () => {
      const zod = await zodBytes(entry);
      const locales = [...zod.keys()].filter((p) => p.includes('/locales/'));
      expect(locales.map((p) => p.slice(p.lastIndexOf('/') + 1))).toEqual(['en.js']);
      const total = [...zod.values()].reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThan(50_000);
      expect(total).toBeLessThan(300_000);
    });
  }
});
