/**
 * A count as the reports print it: `285513` as `285,513`, exactly what
 * `toLocaleString('en-US')` gives. Written out because the first
 * `toLocaleString` of a process loads ICU's locale data: about 120 million
 * instructions and 40 to 100 ms on the main thread of every `check`, where
 * nothing else needs it (docs/performance.md, 'Start-up').
 */
export function countText(x: number): string {
  // Anything but a plain integer (a fraction, NaN, beyond 2^53) keeps the locale's own rules.
  if (!Number.isSafeInteger(x)) return x.toLocaleString('en-US');
  const digits = String(Math.abs(x));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  // toLocaleString keeps the sign of -0.
  return x < 0 || Object.is(x, -0) ? `-${out}` : out;
}

/**
 * A count with its noun, singular for exactly one: `1 trace`, `2 traces`,
 * `1,024 steps`. `plural` for a noun that does not just take an `s`.
 */
export function countNoun(n: number, singular: string, plural = `${singular}s`): string {
  return `${countText(n)} ${n === 1 ? singular : plural}`;
}
