/**
 * Every flawed rule set the repository holds, as the CLI names them (a
 * catalog name or a file), with the world `explore` finds its flaw in:
 * the catalog's two flaws, the mutants of fail-closed that are not
 * equivalent to it (properties/mutants/), and the test rule sets of the
 * rule API that hold a flaw (properties/rule-api/; two need an older
 * version beside them). What the finding-power table measures, and what
 * its test holds every later change to.
 *
 * Left out: the mutants pinned as equivalent (SURVIVORS in
 * properties/mutants/index.ts, their files in properties/mutants/equivalent/:
 * no property tells them from fail-closed),
 * the fixed variants (clean), `rule-api/sweep-by-age.ts` (its flaw needs a
 * clock that passes a day beside a retention sweeper, which no small world
 * of the default check combines: the swarm finds it, rule-api.test.ts
 * explores its world) and `rule-api/retention-after-days.ts` (the same
 * with a sweep two days after a delivery: a wait the clock's probe gives
 * the seeds, not the small worlds; clock-marks.test.ts), stamp-version.ts (flawed while the engine POSTed a
 * PARKED pre-send write; since preSend may park instead of send its flaw
 * no longer exists, and it stays a fixture of a rule set that reads pids),
 * and the rule sets that break the rule
 * contract (properties/broken-rules/, rule-api/tombstone-undeclared.ts):
 * those stop at their first decision with a contract fault, not a
 * property violation.
 */
import { readdirSync } from 'node:fs';
import type { ExploreSizes } from '../outbox/explore-options.ts';
import { OLD_WRITES_QUEUED } from '../outbox/events/process.ts';
import { SESSION_CLAIMS } from '../outbox/events/faults.ts';

/** A flawed rule set as `check --rules` names it, and where `explore` finds the flaw. */
export interface FlawedRules {
  /** What the table calls it: the rule set's file or catalog name. */
  label: string;
  /** Where it comes from: catalog, mutant, rule-api. */
  kind: 'catalog' | 'mutant' | 'rule-api';
  rules: string;
  /** An older version to run beside (`--old-rules`), or null. */
  oldRules: string | null;
  /** The world explore searches, over explore's defaults (`{}`: the default world). */
  world: Partial<ExploreSizes>;
  /**
   * True when no bounded world holds the flaw (a record that grows a few
   * bytes a cycle, a cap past a dozen requeues): the swarm's long life or
   * deep cycles find it (docs/properties.md, 'Long life'), the small
   * worlds and explore cannot.
   */
  longLifeOnly?: boolean;
}

/** The catalog's flaws, every non-equivalent mutant file, and the flawed rule-API rule sets. */
/** The pair of ids the id probe finds in one bucket of key-hash-bucket.ts (id-probe.test.ts holds it). */
export const KEY_HASH_BUCKET_PAIR = 'collide:138:220';

export function flawedRules(): FlawedRules[] {
  // The files directly in the folder: the ones pinned as equivalent (SURVIVORS) are in its `equivalent/`.
  const mutants = readdirSync('properties/mutants')
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.test.ts'))
    .sort();
  const ruleApi = (file: string, oldFile: string | null = null, world: Partial<ExploreSizes> = {}): FlawedRules => ({
    label: file.replace(/\.ts$/, ''),
    kind: 'rule-api',
    rules: `properties/rule-api/${file}`,
    oldRules: oldFile === null ? null : `properties/rule-api/${oldFile}`,
    world: oldFile === null ? world : { ...world, skew: true },
  });
  return [
    { label: 'fresh-cycle', kind: 'catalog', rules: 'fresh-cycle', oldRules: null, world: {} },
    { label: 'fresh-cycle-after-definite', kind: 'catalog', rules: 'fresh-cycle-after-definite', oldRules: null, world: {} },
    ...mutants.map((f): FlawedRules => ({ label: f.replace(/\.ts$/, ''), kind: 'mutant', rules: `properties/mutants/${f}`, oldRules: null, world: {} })),
    ruleApi('admit-ignores-claim.ts'),
    ruleApi('admit-respects-claim.ts'),
    ruleApi('select-below-cap.ts'),
    // Parks at the cap it selects by, but an operator's requeue keeps the attempts: the requeued record is never selected.
    ruleApi('select-below-cap-parks.ts', null, { engines: 1, operatorActionsMax: 2 }),
    ruleApi('tombstone-trusts-absent.ts'),
    // A retention sweeper that also takes PARKED records (docs/rules.md, 'Retention'): the suite's retention world.
    ruleApi('sweep-parked.ts', null, { settings: { retention: 1 } }),
    ruleApi('payload-trusted.ts', null, { corruptionsMax: 1, crashesMax: 0 }),
    ruleApi('payload-lowercased.ts'),
    // Its phantom needs the old version's operator tool (rule-api.test.ts).
    ruleApi('reopen-max-attempts.ts', 'reopen-max-attempts-old.ts', { operatorActionsMax: 1 }),
    ruleApi('flags-trust-defaults.ts', null, { engines: 1, bodiesPerId: 1, corruptionsMax: 1 }),
    // fail-closed beside an older engine that drops the fields it does not know (record-schema.test.ts).
    { label: 'flags-old-drops', kind: 'rule-api', rules: 'fail-closed', oldRules: 'properties/rule-api/flags-old-drops.ts', world: { bodiesPerId: 1, skew: true } },
    ruleApi('park-history-over-cap.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 2 }),
    ruleApi('lease-unfenced.ts', null, { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1 } }),
    // A retry window's park that says not delivered after a lost reply (the suite's clock world).
    ruleApi('retry-window-dishonest.ts', null, { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1 } }),
    // A retry window written as a selection: past it nothing selects the record, nothing parks it (the suite's clock world).
    ruleApi('retry-window-unparked.ts', null, { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1, jump: 1_000 } }),
    // A window longer than the clock's old horizon: the sign of a stored body forgotten after 80 ticks (a long wait).
    ruleApi('evidence-expires.ts', null, { bodiesPerId: 1, crashesMax: 0, settings: { ticks: 2, lease: 1, jump: 1_000 } }),
    // A cycle's QUEUED status (docs/rules.md, 'Record status').
    ruleApi('queued-handed-on.ts'),
    ruleApi('queued-stranded.ts'),
    // A key format changed: safe alone, flawed beside fail-closed, the rule set it extends (the upgrade a check runs by default).
    ruleApi('key-format-changed.ts', null, { skew: true, broker: 'key' }),
    // A requeued cycle's key changed: beside fail-closed, only after an operator's action (docs/properties.md, 'retries-deduped').
    ruleApi('key-marks-requeue.ts', null, { skew: true, engines: 1, bodiesPerId: 1, operatorActionsMax: 1, broker: 'key' }),
    // A schema bump whose migration writes back a record as read: beside fail-closed, a damaged flag becomes false.
    ruleApi('schema-bump-launders.ts', null, { skew: true, engines: 1, bodiesPerId: 1, corruptionsMax: 1 }),
    // Two tasks with the same payload under a broker deduping by key (docs/protocol.md, 'Broker').
    ruleApi('key-from-body.ts', null, { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true }),
    // A history that grows a few bytes a requeue: past the bound only after dozens of cycles (long life).
    { ...ruleApi('epoch-history.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 6 }), longLifeOnly: true },
    // A body that kills the engine at its POST, retried for ever: the crash loop once faults stop (the suite's poison world).
    ruleApi('poison-retried.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 2, crashesMax: 0, settings: { poison: 1 } }),
    // A cap on requeues that strands the record: past every operator budget (deep cycles).
    { ...ruleApi('requeue-cap-strands.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 1, crashesMax: 0, operatorActionsMax: 6 }), longLifeOnly: true },
    // Past a threshold of requeues no world's budgets reach: deep cycles toward the threshold the probe found (thresholds.ts).
    { ...ruleApi('presend-skipped-late.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 1, operatorActionsMax: 6 }), longLifeOnly: true },
    // Past a threshold of attempts past every drawn limit (a timeout taken as transient after 8 attempts, a sign bit at attempt 7):
    // the suite's world with a limit past the threshold the probe saw (small-worlds.ts, suiteAttempts).
    ruleApi('timeout-fast-fail.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 10, crashesMax: 1 }),
    ruleApi('unknown-bitmap-tinyint.ts', null, { engines: 1, bodiesPerId: 1, attemptsMax: 9, crashesMax: 1 }),
    // A window of the day (01:30-02:00 UTC): the clock's probe gives the suite's clock worlds a wait to it (thresholds.ts, probeClock; small-worlds.ts, suiteOptions).
    ruleApi('presend-skipped-nightly.ts', null, { bodiesPerId: 1, settings: { ticks: 3, jump: 11_800_000 } }),
    // A body's size or characters, and ids that differ only in case: the bodies' and the ids' probes give the suite
    // worlds of the shapes the rule set's decisions read (body-probe.ts, id-probe.ts), as check does.
    ruleApi('large-body-fresh-cycle.ts', null, { bodyShape: 'large:262144' }),
    ruleApi('presend-strips-astral.ts', null, { bodyShape: 'astral' }),
    // An envelope's encoding that its decode does not invert past U+00FF: the body probe reads the envelope back (body-probe.ts).
    ruleApi('envelope-latin1.ts', null, { bodyShape: 'astral' }),
    ruleApi('envelope-crlf-to-lf.ts', null, { bodyShape: 'control' }),
    // A key two ids share only once one of them is requeued: the id probe compares keys across resend epochs (id-probe.ts).
    ruleApi('key-number-plus-epoch.ts', null, { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, idShape: 'collide:0:1', operatorActionsMax: 1 }),
    // An envelope keyed otherwise past a size (a claim check): the body probe reads its key, and the suite searches two ids with one such body.
    ruleApi('key-claim-check-large.ts', null, { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, longIds: true, bodyShape: 'large:65537' }),
    // Two bodies of one id that differ only by case, which admit takes for one (a collation): the body probe marks the shape.
    ruleApi('admit-body-collated.ts', null, { bodyShape: 'case' }),
    // Two bodies whose digests begin alike, which a digest cut to 4 hex characters takes for one.
    ruleApi('admit-digest-cut.ts', null, { bodyShape: 'digest' }),
    // A quarantine's cause that says not delivered for a body the broker holds (honest-park judges files too).
    ruleApi('quarantine-cause-from-reply.ts'),
    ruleApi('key-lowercased.ts', null, { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, idShape: 'case' }),
    ruleApi('key-cut-to-64.ts', null, { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, idShape: 'prefix' }),
    // Two ids the envelope puts in one hash bucket: the id probe finds a pair among thousands (id-probe.ts, collision).
    ruleApi('key-hash-bucket.ts', null, { ids: 2, bodiesPerId: 1, engines: 1, crashesMax: 0, broker: 'key', sameBodies: true, idShape: KEY_HASH_BUCKET_PAIR }),
    // A QUEUED record read as an abandoned send: only beside an older version that writes QUEUED in flight, which the
    // status probe gives the suite (status-probe.ts, queued-release.ts).
    ruleApi('queued-rebuilt-fresh.ts', null, { skew: true, settings: { [OLD_WRITES_QUEUED]: 1 } }),
    // "No lock, so nothing in flight": only where a dead engine's claim is released with its session (the suite's world of session claims).
    // A cap checked before the send, off by one: with an attempts limit of 1 nothing is sent, which only a world where nothing fails judges.
    ruleApi('presend-cap-off-by-one.ts', null, { attemptsMax: 1, crashesMax: 0, healthy: true }),
    ruleApi('resubmit-clears-unlocked.ts', null, { engines: 1, bodiesPerId: 1, operatorActionsMax: 1, broker: 'id-409', settings: { [SESSION_CLAIMS]: 1 } }),
  ];
}
