/**
 * `tombstone-delivered.ts` with a reviewer's classic mistake: a tombstone
 * (a delivered record without its payload) is taken to mean "this id is
 * done", so any body offered for it is kept and then archived as delivered,
 * without comparing it to what was sent. A new body for a delivered id is
 * reported delivered while the broker holds the old one (no-phantom-delivery).
 */
import failClosed from '../../model/catalog/fail-closed.ts';
import { extendRules, type RuleSet } from '../../model/rules.ts';
import tombstoneDelivered from './tombstone-delivered.ts';

const tombstoneTrustsAbsent: RuleSet = extendRules(tombstoneDelivered, {
  name: 'tombstone-trusts-absent',
  summary: 'tombstone-delivered, but a tombstone admits and archives any body for its id.',
  admit(view) {
    const { read } = view;
    return read.kind === 'found' && read.metadataOnly === true ? { kind: 'keep' } : failClosed.admit(view);
  },
  dispose(view) {
    const { file, live, read, sent } = view;
    const tomb = read.kind === 'found' && read.metadataOnly === true ? read.record : null;
    if (tomb !== null && sent === null && live?.generation === file.generation && tomb.status === 'DELIVERED') return { kind: 'archive', file };
    return failClosed.dispose(view);
  },
});

export default tombstoneTrustsAbsent;
