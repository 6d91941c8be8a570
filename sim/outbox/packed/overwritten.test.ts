/**
 * A slot an event writes without reading it (an engine's archive writes the
 * reported body) is written by the program whatever it held: a program
 * derived where the slot already held the new value still writes it in a
 * state where it holds another.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import type { World, WorldEvent } from '../world.ts';
import { packedOutbox } from './system.ts';

describe('packed transitions: a slot overwritten without being read', () => {
  it('an archive derived where the reported body was already the archived one still writes it where it was another', () => {
    const options = exploreOptions({ ...EXPLORE_DEFAULTS, engines: 1, crashesMax: 0 });
    const worldRules = { rules: failClosed };
    const objectSystem = outboxSystem(options, worldRules, steppersFor(failClosed, null));
    const system = packedOutbox(options, worldRules, objectSystem);
    // Produce and run one pass with the healthy answers until the engine archives the file.
    let w: World = objectSystem.initial();
    let archive: WorldEvent | null = null;
    for (let i = 0; i < 20 && archive === null; i++) {
      const events = objectSystem.choices(w).flatMap((c) => c.events);
      const e = events.find((x) => x.kind === 'answer' ? x.answer === options.healAnswer : x.kind !== 'crash' && x.kind !== 'produce') ?? events[0];
      if (objectSystem.step(w, e).state.archived.length > w.archived.length) archive = e;
      else w = objectSystem.step(w, e).state;
    }
    if (archive === null) throw new Error('overwritten.test: no archive reached');
    const body = w.live.a?.body ?? '';
    const same: World = { ...w, reported: { a: body } };
    const other: World = { ...w, reported: { a: `${body}-other` } };
    const out = new Int32Array(system.width);
    for (const world of [same, other]) {
      const s = system.layout.pack(world, system.tables);
      system.transitions.run(s, system.transitions.programFor(s, archive), out);
      expect(system.unpack(out).reported).toEqual(objectSystem.step(world, archive).state.reported);
    }
  });
});
