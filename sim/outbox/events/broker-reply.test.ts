/**
 * An accepted POST gets the broker's own reply: `ok`, or `conflict-409` for
 * a duplicate under `id-409`. The answer's name (`accept`) does not say
 * which, so a step answered other than `ok` carries the reply as a tag, and
 * a trace shows it (traces/render/summary.test.ts): a reviewer read "POST -> accept" followed by a park for
 * a permanent refusal.
 */
import { describe, expect, it } from 'vitest';
import { failClosed } from '../../../model/catalog/index.ts';
import { steppersFor } from '../../check.ts';
import { EXPLORE_DEFAULTS, exploreOptions } from '../explore-options.ts';
import { outboxSystem } from '../outbox-system.ts';
import { walkLabelled, takeLabelled } from '../test-labels.ts';
import { brokerReplyOf, FENCED_POST_TAG } from './engine-step.ts';
import { DROPPED_TAG } from './broker-keys.ts';

const system = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, broker: 'id-409' }), { rules: failClosed }, steppersFor(failClosed, null));
// The first POST is stored but its reply lost; the retry is a duplicate of the id.
const retried = walkLabelled(system, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'e1 POST -> lost-reply', 'e1 completing', 'e1 releasing', 'e1 disposing', 'e1 scan a', 'e1 claiming', 'e1 preSend']);

describe("the broker's own reply", () => {
  it('is tagged on an accepted duplicate under id-409 (traces/render says it in the step\'s notes)', () => {
    const out = takeLabelled(system, retried, 'e1 POST -> accept');
    expect(brokerReplyOf(out.tags)).toBe('conflict-409');
    // The broker kept the body it held: the step says it dropped this one.
    expect(out.tags).toContain(DROPPED_TAG);
  });
  it('is not tagged when it is ok', () => {
    const first = takeLabelled(system, walkLabelled(system, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend']), 'e1 POST -> accept');
    expect(brokerReplyOf(first.tags)).toBeNull();
    expect(first.tags).not.toContain(DROPPED_TAG);
  });
});

describe('a POST its rules fence out', () => {
  it('is not an answer: tagged fenced, no answer counted, nothing reaches the broker', () => {
    // fail-closed fences every write: with its claim torn, the engine abandons the attempt at the POST.
    const torn = outboxSystem(exploreOptions({ ...EXPLORE_DEFAULTS, corruptionsMax: 1 }), { rules: failClosed }, steppersFor(failClosed, null));
    const before = walkLabelled(torn, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend', 'tear-claim a']);
    const out = takeLabelled(torn, before, 'e1 POST -> accept');
    expect(out.tags).toContain(FENCED_POST_TAG);
    expect(out.tags.filter((t) => t.startsWith('answer:'))).toEqual([]);
    expect(out.state.broker).toEqual(before.broker);
    expect(out.state.engines[0].state).toBe('disposing');
  });
  it('a POST sent is tagged with its answer, not fenced', () => {
    const out = takeLabelled(system, walkLabelled(system, ['produce a', 'e1 scan a', 'e1 claiming', 'e1 preSend']), 'e1 POST -> accept');
    expect(out.tags).toContain('answer:accept');
    expect(out.tags).not.toContain(FENCED_POST_TAG);
  });
});
