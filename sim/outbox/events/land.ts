/**
 * Late landing (subsystem `broker`): a POST the engine saw time out
 * (`timeout-in-transit`, broker.ts) reaches the broker later, after other
 * steps, after a later POST for the same id, after the engine classified
 * the attempt or died. Any POST in transit may land next, so landings
 * reorder. The broker processes it then as any POST it receives (its dedupe
 * mode, its dedupe window); nobody reads the reply.
 *
 * Enabled while healing too: the network still delivers what it carries, so
 * the world is quiet only once nothing is in transit (outbox-system.ts).
 */
import { brokerAccept, isDuplicate } from '../../../model/broker.ts';
import { LATE_LANDING_KNOBS } from '../options.ts';
import type { World, WorldEvent } from '../world.ts';
import { inTransitMax } from './broker.ts';
import type { WorldContext } from './context.ts';
import { underDedupeWindow } from './dedupe-window.ts';
import { stepText, type EventKind } from './kind.ts';

type Land = Extract<WorldEvent, { kind: 'land' }>;

const LAND_KNOB = LATE_LANDING_KNOBS[0];

/** The broker receives the POST in transit at `e.index`. */
function landApply(w: World, e: Land, ctx: WorldContext, tags: string[]): World {
  const list = w.inTransit ?? [];
  const post = list[e.index];
  const held = w.broker[post.id] ?? null;
  const acceptance = brokerAccept(ctx.options.broker, held, { id: post.id, body: post.body, key: post.key });
  tags.push('fault:land');
  if (acceptance.stored) tags.push('layer:stored');
  if (acceptance.stored && isDuplicate(held, post.body)) tags.push('layer:duplicate');
  const broker = acceptance.holding !== null ? { ...w.broker, [post.id]: acceptance.holding } : w.broker;
  return { ...w, broker, inTransit: list.filter((_, i) => i !== e.index) };
}

export const land: EventKind<Land> = {
  name: 'land',
  group: 'broker',
  tag: 'fault',
  range: 'world',
  event: 'land',
  enabled: (w) => (w.inTransit ?? []).map((p, index): Land => ({ kind: 'land', index, id: p.id, body: p.body })),
  weight: () => 1,
  apply: underDedupeWindow(landApply, (w, e) => w.inTransit?.[e.index]?.id ?? null),
  label: (e) => `POST ${e.id} = ${e.body} lands late (in transit #${e.index})`,
  counter: 'fault:land',
  draw: (e, v) => ({
    from: 'Broker',
    to: 'Broker',
    broken: true,
    text: stepText(v, `late POST ${e.id} = ${e.body} arrives`),
    note: { over: 'Broker', text: 'fault: a POST the engine saw time out reaches the broker now' },
  }),
  hidden: 'a POST the engine saw time out reaches the broker now',
  knob: { stream: LAND_KNOB.stream, weight: (options) => (inTransitMax(options) > 0 ? 1 : 0), draw: LAND_KNOB.draw },
  doc: {
    example: 'POST a = A lands late (in transit #0)',
    enabled: 'a POST is in transit (left by `timeout-in-transit`); any of them, in any order, also once faults stop',
    does: 'the broker receives it now and processes it by its dedupe mode (stores it, drops it as a duplicate, or replaces what it holds); the reply goes nowhere',
    stands: 'a produce request delivered after its client gave up on it (librdkafka\'s "delivered, no delivery report"), and Kafka\'s reordering with several requests in flight: an older request stored after a newer one',
  },
};
