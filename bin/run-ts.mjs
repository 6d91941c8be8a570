#!/usr/bin/env node
// Runs one TypeScript module (argv[2]) under the tsx loader; used by npm scripts.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

register();
const mod = await import(pathToFileURL(resolve(process.argv[2])).href);
if (typeof mod.main === 'function') process.exitCode = await mod.main(process.argv.slice(3));
