/**
 * `tombstone-delivered.ts` without its declaration: the same decisions, but
 * no `recordShape`, so its own tombstones read as corrupt records (as every
 * record without a payload did before shapes could be declared), and a
 * guarded run refuses the payload-less record `complete` returns.
 */
import type { RuleSet } from '../../model/rules.ts';
import tombstoneDelivered from './tombstone-delivered.ts';

const { recordShape: _shape, ...rest } = tombstoneDelivered;
const tombstoneUndeclared: RuleSet = { ...rest, name: 'tombstone-undeclared' };

export default tombstoneUndeclared;
