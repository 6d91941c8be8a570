/**
 * What re-running a trace under other rules says of it, against the
 * violation it recorded, in the same words for one trace (`replay --under`)
 * and for a folder of them (`recheck`): of a trace that recorded none (a
 * diff's side, a run that broke a decision), "now violates" or "violates
 * nothing", never "still violates" or "no longer violates".
 */
/** What a re-run under R says of a trace, against the violation it recorded (a diff trace records none). */
export type RecheckVerdict = 'still violates' | 'violates another property' | 'no longer violates' | 'newly violates' | 'violates nothing';

/** The verdict for a trace that recorded `recorded` and now violates `now` (null: no violation). */
export function recheckVerdict(recorded: string | null, now: string | null): RecheckVerdict {
  if (recorded === null) return now === null ? 'violates nothing' : 'newly violates';
  if (now === null) return 'no longer violates';
  return now === recorded ? 'still violates' : 'violates another property';
}

/** The verdict as the table says it, naming both properties when they differ. */
export function verdictText(verdict: RecheckVerdict, recorded: string | null, now: string | null): string {
  switch (verdict) {
    case 'still violates': return `still violates (${now})`;
    case 'violates another property': return `violates ${now} (recorded ${recorded})`;
    case 'no longer violates': return 'no longer violates';
    case 'newly violates': return `recorded no violation; now violates ${now}`;
    case 'violates nothing': return 'recorded no violation; none now';
  }
}
