/**
 * The shape of a trace's lines, as runtime schemas (zod). A line's checksum
 * proves only that the line was not changed after it was sealed; anyone can
 * seal a line. So the reader also holds every sealed header and step to the
 * shape this tool writes, and a line that has another shape is one clear
 * error, never a TypeError deep inside a renderer or a replay. Objects are
 * loose (a field this version does not know is kept, not refused), values
 * are bounded where the model would otherwise build something huge from
 * them (a world of a billion engines).
 */
// As a namespace (zod 4's documented form), so that the bundle takes only the schemas used and English messages, not every locale (docs/performance.md, 'Start-up').
import * as z from 'zod';
import { BROKER_MODES } from '../model/broker.ts';
import { ANSWER_NAMES } from '../sim/outbox/options.ts';
import { SETTINGS } from '../sim/outbox/events/table.ts';
import { isWorldBodyShape } from '../sim/outbox/body-shape.ts';
import { isIdShape } from '../sim/outbox/id-shape.ts';

const count = (max: number) => z.int().min(0).max(max);

/** The most steps a trace may have: a run this tool records has a few hundred (check's bounds are 120 + 400). */
export const TRACE_STEPS_MAX = 100_000;

const rulesShape = z.looseObject({ name: z.string(), source: z.string(), hash: z.string().nullable() });

const violationShape = z.looseObject({
  property: z.string(),
  subject: z.string(),
  body: z.string(),
  layer: z.string(),
  detail: z.string(),
  step: count(Number.MAX_SAFE_INTEGER),
});

/**
 * The largest value a world setting takes, from the settings themselves: a
 * fixed 1,000,000 here refused every trace of a seed whose clock runs to
 * tick 10,000,000 (events/clock.ts) as edited.
 */
export const SETTING_VALUE_MAX = Math.max(1_000_000, ...SETTINGS.map((s) => s.max));

/** The largest budget a trace's world may hold (crashes, corruptions, operator actions): far above a deep cycle's raised ones. */
const BUDGET_MAX = 1_000_000;

/** The options of an outbox world, within what any command can make (explore's flags allow the most, deep cycles raise budgets further). */
const outboxOptionsShape = z.looseObject({
  engines: z.int().min(1).max(16),
  ids: z.int().min(1).max(26),
  bodiesPerId: z.int().min(1).max(26),
  attemptsMax: z.int().min(1).max(1000),
  broker: z.enum(BROKER_MODES as [string, ...string[]]),
  skew: z.boolean(),
  // A deep cycle toward a far threshold raises the budgets by its 515 rounds (docs/properties.md, 'Long life'): a
  // seed's 12 operator actions become 6,192, and a bound of 1,000 refused its own trace as edited.
  crashesMax: count(BUDGET_MAX),
  corruptionsMax: count(BUDGET_MAX),
  operatorActionsMax: count(BUDGET_MAX),
  // Each kind's weight by name; a trace from before that keeps them by position (sim/outbox/legacy-options.ts).
  weights: z.record(z.string(), count(1_000_000)).refine((w) => Object.keys(w).length <= 256, 'more than 256 weights').optional(),
  answerWeights: z.array(count(1_000_000)).max(64).optional(),
  faultWeights: z.array(count(1_000_000)).max(64).optional(),
  settings: z.record(z.string(), count(SETTING_VALUE_MAX)).refine((w) => Object.keys(w).length <= 64, 'more than 64 settings').optional(),
  faultGroupWeight: count(1_000_000),
  healAnswer: z.enum(ANSWER_NAMES as [string, ...string[]]),
  faultStepsMax: count(1_000_000),
  // A shape the world knows, a large body within its bound (docs/protocol.md, 'Body shapes'): a trace's header makes its bodies on replay.
  bodyShape: z.string().refine(isWorldBodyShape, 'not a body shape').optional(),
  // A pair of ids of one shape (docs/protocol.md, 'Id shapes'): at most its two ids, never with ids named alike.
  idShape: z.string().refine(isIdShape, 'an id shape: case, accent, space, prefix or collide:N:M').optional(),
}).refine((o) => o.idShape === undefined || (o.ids <= 2 && (o as { longIds?: unknown }).longIds !== true), 'an id shape names at most 2 ids, and not with ids named alike');

const headerShape = z.looseObject({
  format: z.string(),
  version: z.int(),
  tool: z.string(),
  model: z.string(),
  rules: rulesShape,
  oldRules: rulesShape.nullable(),
  seed: z.int(),
  options: z.unknown(),
  violation: violationShape.nullable(),
  stepsBeforeShrink: count(Number.MAX_SAFE_INTEGER).nullable(),
  origin: z.string(),
  stepCount: count(TRACE_STEPS_MAX),
});

const stepShape = z.looseObject({
  n: z.int().min(1),
  label: z.string(),
  group: z.string(),
  choice: count(Number.MAX_SAFE_INTEGER),
  phase: z.enum(['fault', 'heal']),
  // null is the switch to the liveness phase; every other event names its kind.
  event: z.looseObject({ kind: z.string() }).nullable(),
  tags: z.array(z.string()),
  // A change names fields of the world (a few dozen at most).
  change: z.record(z.string(), z.unknown()).refine((c) => Object.keys(c).length <= 256, 'more than 256 fields changed'),
});

/** The first problem zod found, in one line: where and what. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length === 0 ? 'the line' : issue.path.map(String).join('.');
  return `${where}: ${issue.message.replace(/\s+/g, ' ')}`;
}

/** The header's problem of shape in one line, or null when it has the shape this tool writes. */
export function headerProblem(value: unknown): string | null {
  const header = headerShape.safeParse(value);
  if (!header.success) return firstIssue(header.error);
  if (header.data.model !== 'outbox') return null;
  const options = outboxOptionsShape.safeParse(header.data.options);
  return options.success ? null : `options.${firstIssue(options.error)}`;
}

/** A step line's problem of shape in one line, or null. */
export function stepProblem(value: unknown): string | null {
  const step = stepShape.safeParse(value);
  return step.success ? null : firstIssue(step.error);
}
