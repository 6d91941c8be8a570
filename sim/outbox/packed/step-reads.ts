/**
 * What an engine's step read of the record, watched where the statechart is
 * told it: the world gives an engine's statechart the record only as its
 * event's `read` (STEP, SCAN, DRAIN: `events/engine-step.ts`, beside the
 * claim, the live file or the file scanned), and reads it itself only to
 * note a parked body replaced (its kind and status, and its body when a
 * parked record is replaced). The read is given to the statechart through a
 * {@link ReadWatch}, which notes each field the step read and what it saw
 * there; the step's program is then kept under those values
 * (`read-codes.ts`, `transitions.ts`), not under the whole record: a step
 * that never touched `read` (an engine releasing its claim) serves every
 * record of its kind and status, a disposal that read the kind, status,
 * payload and reason serves every record that agrees on those.
 *
 * The steppers a search's object system runs are wrapped once; the wrapper
 * costs a flag test until a derivation arms it.
 */
import type { EngineEvent } from '../../../model/lifecycle.ts';
import type { Steppers, WorldRules } from '../outbox-system.ts';
import type { Stepper } from '../stepper.ts';
import { readersOf, type Readers } from './read-codes.ts';
import { ReadWatch } from './read-watch.ts';

export class StepReads {
  /** Statechart steps since {@link arm}. */
  calls = 0;
  /** The step's read, watched (its paths and flags are the last step's). */
  readonly watch = new ReadWatch();
  /** How each version's engines read a record (null: the wrapped steppers' rule sets were not given). */
  readers: Readers | null = null;
  /** A step since {@link arm} had no watched read (a POST, a second step), or kept a watched value in its output (then run again on the plain read). */
  private unwatched = false;
  private armed = false;

  /**
   * `steppers` that report to this watch while it is armed. With the rule
   * sets they run, a step that read some fields of its record shares its
   * program across records that agree on them; without, only a step that
   * read nothing of it does.
   */
  wrap(steppers: Steppers, worldRules?: WorldRules): Steppers {
    if (worldRules !== undefined) this.readers = readersOf(worldRules);
    return { new: this.wrapOne(steppers.new), old: this.wrapOne(steppers.old), oldQueued: this.wrapOne(steppers.oldQueued) };
  }

  arm(): void {
    this.armed = true;
    this.calls = 0;
    this.unwatched = false;
    this.watch.start();
  }

  disarm(): void {
    this.armed = false;
    this.watch.close();
  }

  /** A step since {@link arm} touched its event's `read` (or was not watched). */
  get readSeen(): boolean {
    return this.unwatched || this.watch.touched;
  }

  /** The paths the step read are not all it depends on: its program is kept under the whole record. */
  get whole(): boolean {
    return this.unwatched || this.watch.beyond;
  }

  /** A watched read was accessed after its step returned (it was kept somewhere besides the output). */
  get escaped(): boolean {
    return this.watch.escaped;
  }

  private wrapOne(inner: Stepper): Stepper {
    return (memory, event) => {
      if (!this.armed) return inner(memory, event);
      this.calls++;
      // One statechart step is watched per derivation; another, or one without a read, keys the whole record.
      if (this.calls > 1 || !('read' in event)) {
        this.unwatched = true;
        return inner(memory, event);
      }
      const watch = this.watch;
      const out = inner(memory, { ...event, read: watch.watch(event.read) } as EngineEvent);
      watch.close();
      // A stand-in kept in the output would enter the next world: the step is run again on the plain read, keyed by the whole record.
      if (!watch.leaks(out)) return out;
      this.unwatched = true;
      return inner(memory, event);
    };
  }
}
