/**
 * The world settings a `check` or `explore` call gives, as the flags that
 * give them: each setting is an option of its own name, as each is a flag
 * of its own (`dedupeWindow: 3` is `--dedupe-window 3`), and `settings: {
 * dedupeWindow: 3 }` still gives them as one object. The names are read off
 * the event table (sim/outbox/events/table.ts), as the command line's flags
 * are (sim/cli/world-settings.ts).
 */
import { SETTINGS } from '../outbox/events/table.ts';
import { settingFlagValues } from '../cli/world-settings.ts';
import { UsageError } from '../usage-error.ts';
import type { WorldSettingOptions } from './options.ts';

/** The settings `options` gives, by name, as flag values; one given both on its own and in `settings` is refused. */
export function settingFlagsOf(options: WorldSettingOptions): Record<string, string> {
  const given: Record<string, number> = { ...options.settings };
  for (const s of SETTINGS) {
    const value = (options as Readonly<Record<string, unknown>>)[s.name];
    if (value === undefined) continue;
    if (options.settings?.[s.name] !== undefined) throw new UsageError(`${s.name} is given twice, as an option and in settings: give it once`);
    given[s.name] = value as number;
  }
  return settingFlagValues(given);
}
