/**
 * This package's folder and version, read from its package.json at run
 * time. The file is found from this module's place upward: one folder up
 * from the sources (sim/), two from the compiled JavaScript (dist/sim/),
 * and from a cached bundle (node_modules/.cache/...) the checkout's. A JSON
 * import would make the compiler copy package.json into dist/, where it
 * would pose as the package's own.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'outbox-sim';

/** The nearest package.json above `from` that is outbox-sim's: its folder and its version. */
export function findPackage(from: string | URL = import.meta.url): { root: string; version: string } {
  let dir = new URL('.', from);
  for (;;) {
    let text: string | null = null;
    try {
      text = readFileSync(new URL('package.json', dir), 'utf8');
    } catch {
      // No package.json in this folder: look in the one above.
    }
    if (text !== null) {
      const p = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (p.name === PACKAGE_NAME && typeof p.version === 'string') return { root: fileURLToPath(dir), version: p.version };
    }
    const up = new URL('..', dir);
    if (up.href === dir.href) throw new Error(`no package.json of ${PACKAGE_NAME} above ${String(from)}`);
    dir = up;
  }
}

/** This tool's version: package.json's. */
export function packageVersion(): string {
  return findPackage().version;
}
