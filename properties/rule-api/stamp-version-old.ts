/**
 * The same rules as `stamp-version.ts` under another name: the old version
 * of a rolling deploy (`--old-rules`), so that `who.rules` tells the two apart.
 */
import { type RuleSet } from '../../model/rules.ts';
import stampVersion from './stamp-version.ts';

const stampVersionOld: RuleSet = { ...stampVersion, name: 'stamp-version-old' };

export default stampVersionOld;
