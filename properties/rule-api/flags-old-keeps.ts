/**
 * `flags-old-drops.ts`, but keeping the fields it does not know
 * (`unknownFields: 'keep'`): a record it rewrites keeps the newer version's
 * `unknownSeen`, and the skewed world is clean.
 */
import type { RuleSet } from '../../model/rules.ts';
import flagsOldDrops from './flags-old-drops.ts';

const recordSchema = flagsOldDrops.recordSchema === undefined ? undefined : { ...flagsOldDrops.recordSchema, unknownFields: 'keep' as const };

const flagsOldKeeps: RuleSet = {
  ...flagsOldDrops,
  name: 'flags-old-keeps',
  summary: 'fail-closed on a record schema without unknownSeen, keeping the fields it does not know.',
  ...(recordSchema === undefined ? {} : { recordSchema }),
};

export default flagsOldKeeps;
