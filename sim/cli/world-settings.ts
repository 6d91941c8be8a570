/**
 * The flags of the world settings that event kinds declare for themselves
 * (`Setting` in sim/outbox/events/kind.ts, e.g. the broker's dedupe window):
 * `check` and `explore` take one flag per setting, read off the event table,
 * so a kind's setting needs no edit here or in the commands.
 */
import type { Command } from 'commander';
import { SETTINGS } from '../outbox/events/table.ts';
import { intFlag } from './errors.ts';
import { UsageError } from '../usage-error.ts';

/** The key commander gives a flag's value (`--dedupe-window` → `dedupeWindow`). */
const keyOf = (flag: string): string => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Adds each setting's flag to a command. */
export function settingFlags(cmd: Command, command: 'check' | 'explore'): Command {
  for (const s of SETTINGS) cmd.option(`${s.flag} <n>`, s.help[command]);
  return cmd;
}

/**
 * The settings given by flags (a setting not given is absent), each checked
 * against its bounds; one given on without a setting it needs (`needs`) given
 * on too is bad input, and so is one that acts on an older version
 * (`needsOlder`) where `older` is false (none runs beside).
 */
export function settingsOf(flags: object, older: boolean): Record<string, number> {
  const given = flags as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const s of SETTINGS) {
    const value = given[keyOf(s.flag)];
    if (typeof value === 'string') out[s.name] = intFlag(s.flag, value, s.off, s.min, s.max);
  }
  for (const s of SETTINGS) {
    const needed = s.needs === undefined ? undefined : SETTINGS.find((x) => x.name === s.needs?.setting);
    if (s.needs === undefined || needed === undefined || (out[s.name] ?? s.off) === s.off) continue;
    if ((out[needed.name] ?? needed.off) === needed.off) throw new UsageError(`${s.flag} needs ${s.needs.what}: give ${needed.flag} N too`);
  }
  const idle = SETTINGS.find((s) => s.needsOlder === true && !older && (out[s.name] ?? s.off) !== s.off);
  if (idle !== undefined) throw new UsageError(`${idle.flag} acts on an older version beside the rules, and none runs here: give --old-rules R too (check also runs one by default for a rule set that extends a catalog rule set)`);
  return out;
}

/** The settings' words for a command's first line (`, dedupe window 3`); with `onlyOn`, those not off only. */
export function settingsBanner(settings: Readonly<Record<string, number>>, onlyOn: boolean): string {
  let out = '';
  for (const s of SETTINGS) {
    const value = settings[s.name];
    if (value === undefined || (onlyOn && value === s.off)) continue;
    out += `, ${s.banner(value)}`;
  }
  return out;
}

/** Settings by name as the flags that give them (the library API passes its `settings` so). */
export function settingFlagValues(settings: Readonly<Record<string, number>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (settings === undefined) return out;
  for (const s of SETTINGS) {
    const value = settings[s.name];
    if (value !== undefined) out[keyOf(s.flag)] = String(value);
  }
  const unknown = Object.keys(settings).filter((name) => !SETTINGS.some((s) => s.name === name));
  if (unknown.length > 0) throw new UsageError(`unknown world setting ${unknown.map((n) => JSON.stringify(n)).join(', ')}: the settings are ${SETTINGS.map((s) => s.name).join(', ')}`);
  return out;
}
