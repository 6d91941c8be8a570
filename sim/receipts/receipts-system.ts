/**
 * The receipts system (docs/receipts.md) as a {@link TransitionSystem}: the same
 * `sim/core` engine that runs the outbox runs this, with no special case for
 * either (the checker knows no particular system). Kernel, dispatcher and
 * SDK behaviour come only from `model/receipts`; this file decides which
 * events are enabled and applies them to the world.
 */
import { match } from 'ts-pattern';
import { canStep, dispatchStep, EMPTY_DISPATCHER, endAttempt, enterCall, type DispatchResult } from '../../model/receipts/dispatcher.ts';
import { newExecutor, sdkEnd, sdkStart } from '../../model/receipts/executor.ts';
import { beginHandling, finishHandling, type Command } from '../../model/receipts/kernel.ts';
import { readNewest, type Reader } from '../../model/receipts/reader.ts';
import { EMPTY_STORE } from '../../model/receipts/store.ts';
import { receiptsProperties } from './properties.ts';
import type { ChoiceGroup, TransitionSystem, StepResult } from '../core/system.ts';
import { damageLine, isReadableRow, rewriteToUnknownVersion, TORN_UNRELATED_LINE } from './faults.ts';
import { worldKey } from './key.ts';
import { NO_FAULTS, type FaultBudget, type ReceiptsOptions } from './options.ts';
import { labelOf, type KernelProc, type LayerCounts, type ReceiptsEvent, type ReceiptsWorld } from './world.ts';

/** The command every world starts with: retry task t1, round 1, issued under revision 1. */
export const FIRST_COMMAND: Command = { key: 'k1', task: 't1', round: 1, rev: 1 };

/** Weights of the subsystems against each other in random runs (faults: see options). */
const GROUP_WEIGHT = { command: 3, kernel: 8, sdk: 2, operator: 1 } as const;

const ZERO_COUNTS: LayerCounts = { callbacksByKey: {}, refusals: {}, stale: 0, unavailable: 0 };

/** The reader the kernel gets while the reader-throws fault is armed. */
const throwingReader: Reader = () => {
  throw new Error('receipt store unavailable: read failed');
};

/** The text the kernel stores as the callback's result. */
function resultText(r: DispatchResult): string {
  if (r.kind === 'refused') return `refused: ${r.reason}`;
  return r.coalesced ? `started ${r.attempt} (coalesced by the SDK)` : `started ${r.attempt}`;
}

/** A copy of a counter record with one count raised. */
const bump = <T extends Record<string, number>>(rec: T, k: keyof T & string): T => ({ ...rec, [k]: (rec[k] ?? 0) + 1 });

/** Builds the receipts system. `reader` is the kernel's reader, and the one the honesty property checks. */
export function receiptsSystem(options: ReceiptsOptions, reader: Reader = readNewest): TransitionSystem<ReceiptsWorld, ReceiptsEvent> {
  const initial = (): ReceiptsWorld => {
    const kernels: KernelProc[] = [];
    for (let i = 1; i <= options.kernels; i++) kernels.push({ id: i, inFlight: null });
    return {
      store: EMPTY_STORE,
      written: [],
      revision: FIRST_COMMAND.rev,
      readerThrows: false,
      commands: [FIRST_COMMAND],
      kernels,
      dispatcher: EMPTY_DISPATCHER,
      sdk: newExecutor(options.sdkDedupesByKey),
      counts: ZERO_COUNTS,
      handlings: 0,
      faults: NO_FAULTS,
      healing: false,
    };
  };

  const left = (w: ReceiptsWorld, kind: keyof FaultBudget): boolean => w.faults[kind] < options.faultsMax[kind];

  const choices = (w: ReceiptsWorld): ChoiceGroup<ReceiptsEvent>[] => {
    const commandEvents: ReceiptsEvent[] = [];
    if (!w.healing && w.handlings < options.handlingsMax) {
      // Idle kernels are interchangeable: offering only the first removes symmetric duplicates.
      const idle = w.kernels.find((k) => k.inFlight === null);
      if (idle !== undefined) for (const c of w.commands) commandEvents.push({ kind: 'handle', kernel: idle.id, key: c.key });
    }
    const kernelEvents: ReceiptsEvent[] = [];
    for (const k of w.kernels) {
      const f = k.inFlight;
      if (f === null) continue;
      if (f.via === 'counting-executor') kernelEvents.push({ kind: 'step-call', kernel: k.id, phase: 'callback' });
      else if (canStep(w.dispatcher, k.id, f.call, options.dispatcher)) kernelEvents.push({ kind: 'step-call', kernel: k.id, phase: f.call.phase });
    }
    const sdkEvents: ReceiptsEvent[] = [];
    w.sdk.executions.forEach((e, index) => {
      if (e.status === 'running') sdkEvents.push({ kind: 'finish-execution', index });
    });
    const groups: ChoiceGroup<ReceiptsEvent>[] = [
      { group: 'command', weight: GROUP_WEIGHT.command, events: commandEvents },
      { group: 'kernel', weight: GROUP_WEIGHT.kernel, events: kernelEvents },
      { group: 'sdk', weight: GROUP_WEIGHT.sdk, events: sdkEvents },
    ];
    if (w.healing) return groups;

    const faultEvents: ReceiptsEvent[] = [];
    w.store.lines.forEach((line, i) => {
      if (line !== w.written[i]) return; // already damaged: one fault per line
      if (!isReadableRow(line)) return; // damaging a line that is no row means nothing
      if (left(w, 'damage')) faultEvents.push({ kind: 'damage', line: i });
      if (left(w, 'unknownVersion')) faultEvents.push({ kind: 'unknown-version', line: i });
    });
    if (left(w, 'tornAppend')) faultEvents.push({ kind: 'torn-append' });
    if (left(w, 'readerThrows') && !w.readerThrows) faultEvents.push({ kind: 'reader-throws' });
    if (left(w, 'revisionChange')) faultEvents.push({ kind: 'revision-change' });
    if (left(w, 'newProcess')) faultEvents.push({ kind: 'new-process' });
    groups.push({ group: 'fault', weight: options.faultGroupWeight, events: faultEvents });

    const operatorEvents: ReceiptsEvent[] = [];
    if (left(w, 'cancel')) {
      for (const s of w.dispatcher.store.sessions) if (s.status === 'running') operatorEvents.push({ kind: 'cancel', session: s.id });
    }
    if (left(w, 'newKey')) operatorEvents.push({ kind: 'new-key' });
    groups.push({ group: 'operator', weight: GROUP_WEIGHT.operator, events: operatorEvents });
    return groups;
  };

  const handle = (w: ReceiptsWorld, kernel: number, key: string, tags: string[]): ReceiptsWorld => {
    const command = w.commands.find((c) => c.key === key);
    const index = w.kernels.findIndex((k) => k.id === kernel);
    if (command === undefined || index < 0) return w;
    const begun = beginHandling(w.store, command, w.revision, w.readerThrows ? throwingReader : reader);
    const d = begun.decision;
    let counts = w.counts;
    if (d.kind === 'unavailable') {
      counts = { ...counts, unavailable: counts.unavailable + 1 };
      tags.push('read:threw', 'decision:unavailable');
    } else {
      if (d.kind === 'reject-stale') counts = { ...counts, stale: counts.stale + 1 };
      const skipped = d.read.skipped;
      tags.push(`read:${d.read.diagnostic}`, `record:${d.read.record?.kind ?? 'none'}`, d.kind === 'replay' ? 'decision:replay' : `decision:${d.kind}:${d.basis}`);
      for (let i = 0; i < skipped.corrupt; i++) tags.push('skipped:corrupt');
      for (let i = 0; i < skipped.unknownVersion; i++) tags.push('skipped:unknown-version');
    }
    const kernels = [...w.kernels];
    if (d.kind === 'call') {
      kernels[index] = {
        id: kernel,
        inFlight: options.backend === 'dispatcher' ? { via: 'dispatcher', call: enterCall(command) } : { via: 'counting-executor', command },
      };
    }
    const appended = begun.store.lines.slice(w.store.lines.length);
    return {
      ...w,
      store: begun.store,
      written: [...w.written, ...appended],
      readerThrows: d.kind === 'unavailable' ? false : w.readerThrows,
      kernels,
      counts,
      handlings: w.handlings + 1,
    };
  };

  /** One step of a kernel's call; when the callback returns, the kernel writes its `completed` row. */
  const stepCall = (w: ReceiptsWorld, kernel: number, tags: string[]): ReceiptsWorld => {
    const index = w.kernels.findIndex((k) => k.id === kernel);
    const f = index < 0 ? null : w.kernels[index].inFlight;
    if (f === null) return w;
    const command = f.via === 'dispatcher' ? f.call.command : f.command;
    const entering = f.via === 'counting-executor' || f.call.phase === 'check';
    let next: ReceiptsWorld = entering ? { ...w, counts: { ...w.counts, callbacksByKey: bump(w.counts.callbacksByKey, command.key) } } : w;
    if (entering) tags.push('layer:callback');
    let result: string | null;
    let inFlight = f;
    if (f.via === 'counting-executor') {
      // The counting executor does its effect within the callback: nothing is left running.
      const started = sdkStart(w.sdk, command.key, null);
      const done = started.coalesced ? started.executor : sdkEnd(started.executor, started.executor.executions.length - 1, 'succeeded');
      next = { ...next, sdk: done };
      tags.push('layer:start', started.coalesced ? 'sdk:coalesced' : 'layer:effect');
      result = started.coalesced ? 'effect coalesced by the executor' : 'effect';
    } else {
      tags.push(`dispatch:${f.call.phase}`);
      const out = dispatchStep(w.dispatcher, w.sdk, kernel, f.call, options.dispatcher);
      next = { ...next, dispatcher: out.dispatcher, sdk: out.executor };
      if (out.created) tags.push('layer:attempt');
      result = out.result === null ? null : resultText(out.result);
      if (out.result?.kind === 'refused') {
        next = { ...next, counts: { ...next.counts, refusals: bump(next.counts.refusals, out.result.reason) } };
        tags.push(`refused:${out.result.reason}`);
      }
      if (out.result?.kind === 'started') tags.push('layer:start', out.result.coalesced ? 'sdk:coalesced' : 'layer:effect');
      if (out.call !== null) inFlight = { via: 'dispatcher', call: out.call };
    }
    const kernels = [...w.kernels];
    kernels[index] = { id: kernel, inFlight: result === null ? inFlight : null };
    if (result === null) return { ...next, kernels };
    const store = finishHandling(next.store, command, next.revision, result);
    return { ...next, kernels, store, written: [...next.written, store.lines[store.lines.length - 1]] };
  };

  const used = (w: ReceiptsWorld, kind: keyof FaultBudget): FaultBudget => ({ ...w.faults, [kind]: w.faults[kind] + 1 });

  const rewrite = (w: ReceiptsWorld, line: number, bytes: string | null, kind: keyof FaultBudget): ReceiptsWorld => {
    if (bytes === null) return w;
    const lines = [...w.store.lines];
    lines[line] = bytes;
    return { ...w, store: { lines }, faults: used(w, kind) };
  };

  const step = (w: ReceiptsWorld, e: ReceiptsEvent): StepResult<ReceiptsWorld> => {
    const tags: string[] = [];
    // Exhaustive: a new kind of receipts event is a type error here until the world steps it.
    return match(e)
      .returnType<StepResult<ReceiptsWorld>>()
      .with({ kind: 'handle' }, (e) => {
        tags.push('layer:handling');
        return { state: handle(w, e.kernel, e.key, tags), tags };
      })
      .with({ kind: 'step-call' }, (e) => {
        return { state: stepCall(w, e.kernel, tags), tags };
      })
      .with({ kind: 'finish-execution' }, (e) => {
        const ex = w.sdk.executions[e.index];
        if (ex === undefined) return { state: w, tags };
        tags.push('sdk:succeeded');
        const store = ex.attempt === null ? w.dispatcher.store : endAttempt(w.dispatcher.store, ex.attempt, 'succeeded');
        return { state: { ...w, sdk: sdkEnd(w.sdk, e.index, 'succeeded'), dispatcher: { ...w.dispatcher, store } }, tags };
      })
      .with({ kind: 'damage' }, (e) => {
        tags.push('fault:damage');
        return { state: rewrite(w, e.line, damageLine(w.store.lines[e.line] ?? ''), 'damage'), tags };
      })
      .with({ kind: 'unknown-version' }, (e) => {
        tags.push('fault:unknown-version');
        return { state: rewrite(w, e.line, rewriteToUnknownVersion(w.store.lines[e.line] ?? ''), 'unknownVersion'), tags };
      })
      .with({ kind: 'torn-append' }, () => {
        tags.push('fault:torn-append');
        return {
          state: { ...w, store: { lines: [...w.store.lines, TORN_UNRELATED_LINE] }, written: [...w.written, TORN_UNRELATED_LINE], faults: used(w, 'tornAppend') },
          tags,
        };
      })
      .with({ kind: 'reader-throws' }, () => {
        tags.push('fault:reader-throws');
        return { state: { ...w, readerThrows: true, faults: used(w, 'readerThrows') }, tags };
      })
      .with({ kind: 'revision-change' }, () => {
        tags.push('fault:revision-change');
        return { state: { ...w, revision: w.revision + 1, faults: used(w, 'revisionChange') }, tags };
      })
      .with({ kind: 'new-process' }, () => {
        // Kernel memory (in-flight calls) and dispatcher memory (per-task locks) are lost; disk, records and the SDK stay.
        tags.push('fault:new-process');
        return {
          state: { ...w, kernels: w.kernels.map((k) => ({ id: k.id, inFlight: null })), dispatcher: { ...w.dispatcher, locks: {} }, faults: used(w, 'newProcess') },
          tags,
        };
      })
      .with({ kind: 'cancel' }, (e) => {
        tags.push('operator:cancel');
        const store = endAttempt(w.dispatcher.store, e.session, 'cancelled');
        const index = w.sdk.executions.findIndex((x) => x.attempt === e.session && x.status === 'running');
        const sdk = index < 0 ? w.sdk : sdkEnd(w.sdk, index, 'cancelled');
        return { state: { ...w, dispatcher: { ...w.dispatcher, store }, sdk, faults: used(w, 'cancel') }, tags };
      })
      .with({ kind: 'new-key' }, () => {
        tags.push('operator:new-key');
        const n = w.commands.length + 1;
        const command: Command = { key: `k${n}`, task: FIRST_COMMAND.task, round: n, rev: w.revision };
        return { state: { ...w, commands: [...w.commands, command], faults: used(w, 'newKey') }, tags };
      })
      .exhaustive();
  };

  return {
    initial,
    choices,
    step,
    label: labelOf,
    key: worldKey,
    properties: receiptsProperties(reader),
    heal: (w) => ({ ...w, healing: true }),
    quiescent: (w) => w.kernels.every((k) => k.inFlight === null) && w.sdk.executions.every((e) => e.status !== 'running'),
  };
}
