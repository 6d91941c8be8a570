/**
 * What the world writes beside every file it moves to `undelivered/`: the
 * operator's recovery command. It is the same whichever rule set runs: a rule
 * set names the cause of a quarantine, never the way back, which is the
 * operator's two actions (docs/protocol.md, 'Operator').
 */
export const RECOVERY = 'outbox-sim operator: inspect the record, then requeue or restore';

/** Park reasons that claim the body was not delivered (docs/properties.md, honest-park). */
export const NOT_DELIVERED_REASONS: readonly string[] = ['permanent-refusal', 'max-attempts', 'retry-window-exhausted'];

/**
 * Whether a quarantine's cause names a park reason that says the body was
 * not delivered (fail-closed names a parked record's file `parked-<reason>`):
 * an operator reading it takes the body for undelivered, and may publish it
 * again.
 */
export function causeSaysUndelivered(cause: string): boolean {
  return NOT_DELIVERED_REASONS.some((reason) => cause.includes(reason));
}
