/**
 * Item "time", a back-off of tens of ticks (docs/rules.md, 'Time'):
 * fail-closed, but a record whose attempt failed waits `BACKOFF` ticks
 * before it is selected again, as `retry-backoff.ts` does with 2.
 *
 * Clean. Written by an audit of the tool, which reported it as retrying
 * forever (quiet-after-healing): once faults stopped, time passed a tick at
 * a time with an idle pass of every engine between two ticks, and five
 * attempts 30 ticks apart took more than the liveness phase's 400 steps. A
 * long wait (docs/faults.md, `long-wait`) passes the back-off in one step.
 */
import type { RuleSet } from '../../model/rules.ts';
import { backoffRules } from './retry-backoff.ts';

/** Ticks a record waits after a failed attempt. */
export const BACKOFF = 30;

const retryBackoffLong: RuleSet = backoffRules('retry-backoff-long', BACKOFF);

export default retryBackoffLong;
