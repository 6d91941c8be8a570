/**
 * A time in milliseconds since 1970 as UTC text (2023-11-15T02:00:00Z, the
 * milliseconds only when there are any), computed from the number alone:
 * nothing under sim/ constructs a Date (sim/cli/clock.test.ts keeps the
 * wall clock out), and a date is arithmetic on days (the civil calendar
 * from a day count, as in H. Hinnant's chrono algorithms).
 */
export function utcText(ms: number): string {
  const day = 86_400_000;
  const days = Math.floor(ms / day);
  const rem = ms - days * day;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const two = (v: number): string => String(v).padStart(2, '0');
  const milli = rem % 1_000;
  const time = `${two(Math.floor(rem / 3_600_000))}:${two(Math.floor(rem / 60_000) % 60)}:${two(Math.floor(rem / 1_000) % 60)}${milli === 0 ? '' : `.${String(milli).padStart(3, '0')}`}`;
  return `${String(y).padStart(4, '0')}-${two(m)}-${two(d)}T${time}Z`;
}
