/**
 * fail-closed, with a rule file's debugging lines: one at the top level of
 * the file and one per classify call, all through `console.log`
 * (rule-output.test.ts: they reach stderr, never the command's stdout).
 */
import failClosed from '../model/catalog/fail-closed.ts';
import { extendRules } from '../model/rules.ts';

console.log('rule file loaded');

export default extendRules(failClosed, {
  name: 'prints',
  summary: 'fail-closed, printing a line per classify call',
  classify: (reply) => {
    console.log(`classify ${reply}`);
    console.info(`classify info ${reply}`);
    return failClosed.classify(reply);
  },
});
