/**
 * `npm ci` runs without the install-scripts warning: every dependency with
 * an install script has a decision in package.json's `allowScripts` (npm's
 * supported place for it, written by `npm install-scripts approve`). esbuild
 * is the only one: its postinstall checks the platform binary that its
 * optional dependency brings and, when that is missing (an install without
 * optional dependencies), fetches it; approved, it runs, and esbuild works.
 * The approval is by name: this machine's npm writes lockfiles without
 * `resolved` URLs, so a pinned `esbuild@0.28.2` entry would not match, and
 * package.json pins esbuild's version exactly anyway.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { transformSync, version } from 'esbuild';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean>; dependencies: Record<string, string> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string; hasInstallScript?: boolean }> };

describe('install scripts', () => {
  it('every locked package with an install script has an allowScripts decision', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript === true)
      .map(([path, p]) => ({ name: path.replace(/^.*node_modules\//, ''), version: p.version }));
    expect(withScripts.map((p) => p.name)).toContain('esbuild');
    const decided = pkg.allowScripts ?? {};
    for (const p of withScripts) expect([p.name, p.name in decided || `${p.name}@${p.version}` in decided]).toEqual([p.name, true]);
  });
  it("npm's own review lists nothing left uncovered", () => {
    const out = execFileSync('npm', ['install-scripts', 'ls'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).not.toMatch(/not yet covered/);
  });
  it('esbuild, whose postinstall is approved, works at the version package.json pins', () => {
    expect(version).toBe(pkg.dependencies.esbuild);
    expect(transformSync('const x: number = 1;', { loader: 'ts' }).code).toBe('const x = 1;\n');
  });
});
