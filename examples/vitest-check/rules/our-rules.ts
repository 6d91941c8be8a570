/**
 * Our service's outbox rules: fail-closed's decisions, under our own name.
 * Override a decision (admit, classify, complete, ...) where the service
 * decides otherwise; a rule file's default export is a rule set.
 */
import { extendRules, failClosed } from 'outbox-sim';

export default extendRules(failClosed, {
  name: 'our-rules',
  summary: 'fail-closed, as our service runs it',
});
