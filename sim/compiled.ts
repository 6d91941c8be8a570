/**
 * Whether this module runs as the compiled package (dist/, plain
 * JavaScript) rather than from the TypeScript sources under a loader: the
 * worker threads a command starts take the entry that matches.
 */
export function runsCompiled(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.js');
}
