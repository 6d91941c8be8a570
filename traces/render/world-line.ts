/**
 * The world a trace ran in, in one line of words: its sizes, its broker,
 * the settings that were on, and under version skew which engines ran
 * which rule set. A text trace showed none of it, so a trace of the
 * stable-identities world printed the same table as one of the default
 * world, and a rolling upgrade's trace did not say which engine ran the
 * old rules (the Markdown's diagram names them on its lanes).
 */
import { countNoun } from '../../sim/count-text.ts';
import { SETTINGS } from '../../sim/outbox/events/table.ts';
import { bodyShapeWords } from '../../sim/outbox/body-shape.ts';
import { idShapeWords } from '../../sim/outbox/id-shape.ts';
import { terminalText } from '../../sim/terminal-text.ts';
import type { Trace } from '../../sim/trace-format.ts';
import type { TraceState } from './states.ts';
import { engineVersions, rulesWords } from './step-drawings.ts';

/**
 * `world: 1 id, 2 bodies per id, 2 engines, attempts limit 2, at most 1 crash, ...`;
 * under version skew a second line, `engines: e1 old rules: fail-closed; ...`
 * (in the words of the diagram's lanes; `states` as statesOf rebuilds them).
 * None for a trace whose options are not an outbox world's.
 */
export function worldLines(trace: Trace, states: readonly TraceState[]): string[] {
  if (trace.header.model !== 'outbox') return [];
  const o = trace.header.options;
  if (o === null || typeof o !== 'object') return [];
  const num = (k: string): number | null => {
    const v = (o as Record<string, unknown>)[k];
    return typeof v === 'number' ? v : null;
  };
  const parts: string[] = [];
  const sized = (k: string, say: (n: number) => string): void => {
    const v = num(k);
    if (v !== null) parts.push(say(v));
  };
  const idShape = (o as { idShape?: unknown }).idShape;
  // An id shape (docs/protocol.md, 'Id shapes'): its name and the two ids, printed apart.
  const idShaped = typeof idShape === 'string' ? `, ${terminalText(idShape)} (${terminalText(idShapeWords(idShape))})` : '';
  sized('ids', (n) => `${countNoun(n, 'id')}${(o as { longIds?: unknown }).longIds === true ? ' named alike (eu-west-1.tenant-42.order-000017, ...)' : ''}${idShaped}`);
  const shape = (o as { bodyShape?: unknown }).bodyShape;
  // A body shape (docs/protocol.md, 'Body shapes'): its name and what it means.
  const shaped = typeof shape === 'string' ? `, ${terminalText(shape)} (${terminalText(bodyShapeWords(shape))})` : '';
  sized('bodiesPerId', (n) => `${countNoun(n, 'body', 'bodies')} per id${(o as { sameBodies?: unknown }).sameBodies === true ? ' (the same for every id)' : ''}${shaped}`);
  sized('engines', (n) => countNoun(n, 'engine'));
  sized('attemptsMax', (n) => `attempts limit ${n}`);
  const most = (n: number, noun: string, plural?: string): string => (n === 0 ? `no ${noun}` : `at most ${countNoun(n, noun, plural)}`);
  // Whole phrases: a bare word that is an event kind's name belongs to its entry file alone (events/no-copies.test.ts).
  sized('crashesMax', (n) => (n === 0 ? 'no crash' : n === 1 ? 'at most 1 crash' : `at most ${n} crashes`));
  sized('corruptionsMax', (n) => most(n, 'corruption'));
  sized('operatorActionsMax', (n) => most(n, 'operator action'));
  const broker = (o as { broker?: unknown }).broker;
  if (typeof broker === 'string') parts.push(`broker ${broker}`);
  const settings = (o as { settings?: unknown }).settings;
  if (settings !== null && typeof settings === 'object') {
    for (const s of SETTINGS) {
      const v = (settings as Record<string, unknown>)[s.name];
      if (typeof v === 'number' && v !== s.off) parts.push(s.banner(v));
    }
  }
  // An instant of the rule set's the seed's long waits may go to (a check's probe of the clock drew it).
  sized('waitTo', (n) => `a long wait to tick ${n}`);
  const lines = parts.length > 0 ? [`world: ${parts.join(', ')}`] : [];
  // Under skew, which engine ran which rule set, as the diagram's lanes say it (step-drawings.ts).
  if (trace.header.oldRules !== null) {
    const engines = engineVersions(states).map(([pid, v]) => `e${pid} ${rulesWords(trace, v)}`);
    if (engines.length > 0) lines.push(`engines: ${engines.join('; ')}`);
  }
  return lines;
}
