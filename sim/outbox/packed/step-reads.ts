/**
 * Whether an engine's step looked at the record at all, watched where the
 * statechart is told it: the world gives an engine's `step` the record only
 * as the STEP event's `read` (`events/engine-step.ts`: the record read for
 * the engine, beside the claim and the live file), and reads it itself only
 * to note a parked body replaced (its kind and status, and its body when a
 * parked record is replaced). A statechart step that never touched `read`
 * (an engine releasing its claim, or one whose file was replaced meanwhile)
 * gives the same result for every record of that kind and status, so its
 * program is kept under them (`transitions.ts`), not under the record.
 *
 * The steppers a search's object system runs are wrapped once; the wrapper
 * costs a flag test until a derivation arms it.
 */
import type { EngineEvent } from '../../../model/lifecycle.ts';
import type { Steppers } from '../outbox-system.ts';
import type { Stepper } from '../stepper.ts';

export class StepReads {
  /** Statechart steps since {@link arm}. */
  calls = 0;
  /** A step since {@link arm} touched its event's `read` (or was not a STEP, whose shape is not watched). */
  readSeen = false;
  private armed = false;

  /** `steppers` that report to this watch while it is armed. */
  wrap(steppers: Steppers): Steppers {
    return { new: this.wrapOne(steppers.new), old: this.wrapOne(steppers.old) };
  }

  arm(): void {
    this.armed = true;
    this.calls = 0;
    this.readSeen = false;
  }

  disarm(): void {
    this.armed = false;
  }

  private wrapOne(inner: Stepper): Stepper {
    return (memory, event) => {
      if (!this.armed) return inner(memory, event);
      this.calls++;
      if (event.type !== 'STEP') {
        this.readSeen = true;
        return inner(memory, event);
      }
      // The same event, its `read` behind a getter (enumerable: a copy or a print of the event reads it too).
      const watched = { ...event } as EngineEvent & { type: 'STEP' };
      const read = event.read;
      Object.defineProperty(watched, 'read', {
        enumerable: true,
        get: () => {
          this.readSeen = true;
          return read;
        },
      });
      return inner(memory, watched);
    };
  }
}
