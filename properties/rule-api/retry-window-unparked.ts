/**
 * Item "time", a retry window that abandons (docs/rules.md, 'Time'):
 * `retry-window`'s stamp, but the window is a selection
 * (`SELECT ... WHERE first_tried_at > now() - interval`), as real relays
 * write it: an engine no longer selects a record past its window.
 *
 * Mistake: nothing parks it. Once the window has passed the record stays
 * READY, unselected, forever, and its body is neither sent, parked nor
 * quarantined: the file is left live with no cause (settled-after-healing).
 */
import { extendRules, type RuleSet } from '../../model/rules.ts';
import retryWindow, { firstTriedAt, RETRY_WINDOW } from './retry-window.ts';
import failClosed from '../../model/catalog/fail-closed.ts';

const retryWindowUnparked: RuleSet = extendRules(retryWindow, {
  name: 'retry-window-unparked',
  summary: `retry-window, but a record past its ${RETRY_WINDOW}-tick window is no longer selected instead of parked.`,
  complete: failClosed.complete,
  selectable: (record, view) => {
    // fail-closed's own selection first: a payload its digest does not name is never sent.
    if (failClosed.selectable?.(record, view) === false) return false;
    const first = firstTriedAt(record);
    return first === null || view.now - first < RETRY_WINDOW;
  },
});

export default retryWindowUnparked;
