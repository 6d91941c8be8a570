#!/usr/bin/env node
// Entry point: registers the TypeScript loader (tsx) so that the CLI and a
// user's `.ts` rule files load without a build step, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../sim/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
