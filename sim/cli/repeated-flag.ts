/**
 * A flag that takes a value, given twice with two values (`show --format md
 * --format html`, `check --rules a.ts --rules b.ts`). Commander keeps the
 * last and drops the first without a word, so a command ran on what the user
 * did not mean to ask. No flag of outbox-sim collects values, so two values
 * are one mistake: refused in one line, exit 2. The same value twice is
 * harmless and passes.
 */
import type { Command, Option } from 'commander';

/** The line refusing `argv`'s first value flag given twice with two values, or null when there is none. */
export function repeatedFlagLine(program: Command, argv: readonly string[]): string | null {
  const command = program.commands.find((c) => c.name() === argv[0] || c.aliases().includes(argv[0] ?? ''));
  if (command === undefined) return null;
  const options = [...command.options, ...program.options];
  const seen = new Map<string, string>();
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i] ?? '';
    // After `--` everything is an argument.
    if (token === '--') break;
    if (!token.startsWith('-') || token === '-') continue;
    const eq = token.indexOf('=');
    const name = eq < 0 ? token : token.slice(0, eq);
    const option = options.find((o) => o.long === name || o.short === name);
    if (option === undefined || !takesValue(option)) continue;
    const value = eq >= 0 ? token.slice(eq + 1) : argv[i + 1];
    if (eq < 0) i++;
    if (value === undefined) continue;
    const flag = option.long ?? name;
    const earlier = seen.get(flag);
    if (earlier !== undefined && earlier !== value) {
      return `outbox-sim: ${command.name()} ${flag} was given twice ("${earlier}", then "${value}"); give it once, with the value you mean`;
    }
    seen.set(flag, value);
  }
  return null;
}

/** A flag followed by a value (`--format <f>`), not a switch (`--json`) or a list (`<shards...>`). */
function takesValue(option: Option): boolean {
  return (option.required || option.optional) && !option.variadic;
}
