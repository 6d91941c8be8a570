/**
 * What the world writes beside every file it moves to `undelivered/`: the
 * operator's recovery command. It is the same whichever rule set runs: a rule
 * set names the cause of a quarantine, never the way back, which is the
 * operator's two actions (docs/protocol.md, 'Operator').
 */
export const RECOVERY = 'outbox-sim operator: inspect the record, then requeue or restore';
