/**
 * `--property at-most-once`, read once for check and explore. The property
 * reads the broker's log of accepted POSTs, which only `--broker log` keeps
 * (docs/properties.md, 'at-most-once (always, opt-in)'): under another fixed
 * broker mode it can never fail, so a search would call the world proved
 * for a property it never looked at. That is bad input. A check whose broker
 * is drawn per seed (no `--broker`) never draws log: under at-most-once its
 * seeds run under log instead (check-command.ts), and its small worlds keep
 * the suite's broker-log world, so it may ask.
 */
import type { BrokerMode } from '../../model/types.ts';
import { OPT_IN_PROPERTIES } from '../outbox/properties.ts';
import { UsageError } from '../usage-error.ts';
import { choiceFlag } from './errors.ts';

/** Whether `--property` asks for at-most-once; throws when the fixed broker mode keeps no log to check it on. */
export function atMostOnceAsked(property: string | undefined, broker: BrokerMode | null): boolean {
  if (property === undefined) return false;
  const asked = choiceFlag('--property', property, OPT_IN_PROPERTIES, 'at-most-once') === 'at-most-once';
  if (asked && broker !== null && broker !== 'log') {
    throw new UsageError(`--property at-most-once reads the broker's log of accepted POSTs, which only --broker log keeps: under --broker ${broker} it could never fail; add --broker log`);
  }
  return asked;
}
