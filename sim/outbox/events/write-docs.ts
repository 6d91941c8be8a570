/** `npm run docs:faults`: rewrites the generated fault menu of docs/faults.md from the event table. */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../atomic-write.ts';
import { faultMenu, withMenu } from './docs.ts';

export const FAULTS_PAGE = 'docs/faults.md';

export function main(): number {
  writeFileAtomic(FAULTS_PAGE, withMenu(readFileSync(FAULTS_PAGE, 'utf8'), faultMenu()));
  process.stdout.write(`${FAULTS_PAGE}: fault menu written from the event table\n`);
  return 0;
}
