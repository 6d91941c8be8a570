/** The same rules as `stamp-version-fixed.ts` under another name: the old version of a rolling deploy (`--old-rules`). */
import { type RuleSet } from '../../model/rules.ts';
import stampVersionFixed from './stamp-version-fixed.ts';

const stampVersionFixedOld: RuleSet = { ...stampVersionFixed, name: 'stamp-version-fixed-old' };

export default stampVersionFixedOld;
