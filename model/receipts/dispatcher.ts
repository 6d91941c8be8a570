/**
 * The dispatcher behind the kernel's executor callback (docs/receipts.md, 'Dispatcher').
 * A call goes through four atomic phases, so that concurrent callers can
 * interleave between them:
 *
 * - `check`: refuse when a durable session record says the task is running,
 *   or an active execution lease is held for the task and round;
 * - `offer`: the attempt store finds the attempt for the idempotency key, or
 *   proposes a new one;
 * - `claim`: take the attempt's occupancy; terminal attempts, occupied ones
 *   and conflicting leases are refused;
 * - `start`: the SDK start, and the session record becomes `running`.
 *
 * Sessions, leases and attempts are durable; the per-task serialization lock
 * is process memory. {@link DispatcherRules} switches single mechanisms off,
 * so the checker can show which ones the safety properties rest on.
 */
import type { Command } from './kernel.ts';
import { sdkStart, type ExecutorState } from './executor.ts';

/** Where an attempt is in its life. `succeeded` and `cancelled` are terminal. */
export type AttemptStatus = 'proposed' | 'started' | 'succeeded' | 'cancelled';

/** One attempt of the attempt store, found by its idempotency key. */
export interface Attempt {
  id: string;
  key: string;
  task: string;
  round: number;
  status: AttemptStatus;
  /** Claimed by a dispatcher; released when the execution ends. */
  occupied: boolean;
}

/** A durable session record; its id is its attempt's id. */
export interface Session {
  id: string;
  key: string;
  task: string;
  round: number;
  status: 'running' | 'completed' | 'cancelled';
}

/** An active execution lease for a task and round. */
export interface Lease {
  task: string;
  round: number;
  attempt: string;
}

/** The dispatcher's durable state. Attempts are never deleted, so their count is the attempts created. */
export interface DispatcherStore {
  sessions: Session[];
  leases: Lease[];
  attempts: Attempt[];
}

/** The dispatcher: durable records plus the per-task lock held in memory (task -> caller). */
export interface Dispatcher {
  store: DispatcherStore;
  locks: Record<string, number>;
}

/** Mechanisms that can be switched off to make a deliberately broken dispatcher. */
export interface DispatcherRules {
  /** The attempt store finds an existing attempt by idempotency key (off: always proposes). */
  offerByKey: boolean;
  /** Claims of terminal attempts are refused (off: a finished or cancelled attempt can be claimed again). */
  refuseTerminal: boolean;
  /** One call per task at a time, from `check` to its return (off: calls interleave freely). */
  serializePerTask: boolean;
}

/** Every mechanism on. */
export const SOUND_DISPATCHER: DispatcherRules = { offerByKey: true, refuseTerminal: true, serializePerTask: true };

/** Why a call was refused. */
export type Refusal = 'session-running' | 'lease-held' | 'terminal-attempt' | 'occupied' | 'conflicting-lease';

/** The phases of a call, in order. */
export type DispatchPhase = 'check' | 'offer' | 'claim' | 'start';

/** A call in flight. */
export interface DispatchCall {
  command: Command;
  phase: DispatchPhase;
  attempt: string | null;
}

/** What the callback returns to the kernel. */
export type DispatchResult =
  | { kind: 'started'; attempt: string; coalesced: boolean }
  | { kind: 'refused'; reason: Refusal; attempt: string | null };

/** An empty dispatcher. */
export const EMPTY_DISPATCHER: Dispatcher = { store: { sessions: [], leases: [], attempts: [] }, locks: {} };

/** A new call as it enters the dispatcher. */
export function enterCall(command: Command): DispatchCall {
  return { command, phase: 'check', attempt: null };
}

/** True when the caller may take its next phase now (it waits while another caller holds the task's lock). */
export function canStep(d: Dispatcher, caller: number, call: DispatchCall, rules: DispatcherRules): boolean {
  if (!rules.serializePerTask || call.phase !== 'check') return true;
  const holder = d.locks[call.command.task];
  return holder === undefined || holder === caller;
}

/** The result of one phase. */
export interface DispatchStepOut {
  dispatcher: Dispatcher;
  executor: ExecutorState;
  /** The call's next phase, or null when it returned. */
  call: DispatchCall | null;
  /** What it returned, when it did. */
  result: DispatchResult | null;
  /** An attempt was proposed in this phase. */
  created: boolean;
}

const isTerminal = (s: AttemptStatus): boolean => s === 'succeeded' || s === 'cancelled';

function withoutLock(locks: Record<string, number>, task: string, caller: number): Record<string, number> {
  if (locks[task] !== caller) return locks;
  const { [task]: _released, ...rest } = locks;
  return rest;
}

function replaceAttempt(store: DispatcherStore, attempt: Attempt): DispatcherStore {
  return { ...store, attempts: store.attempts.map((a) => (a.id === attempt.id ? attempt : a)) };
}

/** Takes one phase of `caller`'s call. The caller must be allowed to by {@link canStep}. */
export function dispatchStep(
  d: Dispatcher,
  executor: ExecutorState,
  caller: number,
  call: DispatchCall,
  rules: DispatcherRules,
): DispatchStepOut {
  const { command } = call;
  const same = { dispatcher: d, executor, created: false };
  const refuse = (dispatcher: Dispatcher, reason: Refusal): DispatchStepOut => ({
    ...same,
    dispatcher: { ...dispatcher, locks: withoutLock(dispatcher.locks, command.task, caller) },
    call: null,
    result: { kind: 'refused', reason, attempt: call.attempt },
  });
  switch (call.phase) {
    case 'check': {
      const locked = rules.serializePerTask ? { ...d, locks: { ...d.locks, [command.task]: caller } } : d;
      if (d.store.sessions.some((s) => s.task === command.task && s.status === 'running')) return refuse(locked, 'session-running');
      if (d.store.leases.some((l) => l.task === command.task && l.round === command.round)) return refuse(locked, 'lease-held');
      return { ...same, dispatcher: locked, call: { ...call, phase: 'offer' }, result: null };
    }
    case 'offer': {
      const found = rules.offerByKey ? d.store.attempts.find((a) => a.key === command.key) : undefined;
      if (found !== undefined) return { ...same, call: { ...call, phase: 'claim', attempt: found.id }, result: null };
      const attempt: Attempt = {
        id: `a${d.store.attempts.length + 1}`,
        key: command.key,
        task: command.task,
        round: command.round,
        status: 'proposed',
        occupied: false,
      };
      const store = { ...d.store, attempts: [...d.store.attempts, attempt] };
      return { ...same, dispatcher: { ...d, store }, call: { ...call, phase: 'claim', attempt: attempt.id }, result: null, created: true };
    }
    case 'claim': {
      const a = d.store.attempts.find((x) => x.id === call.attempt);
      if (a === undefined) throw new Error(`claim of attempt ${call.attempt} which the store does not hold`);
      if (rules.refuseTerminal && isTerminal(a.status)) return refuse(d, 'terminal-attempt');
      if (a.occupied) return refuse(d, 'occupied');
      if (d.store.leases.some((l) => l.task === a.task && l.round === a.round && l.attempt !== a.id)) return refuse(d, 'conflicting-lease');
      const leases = d.store.leases.some((l) => l.attempt === a.id) ? d.store.leases : [...d.store.leases, { task: a.task, round: a.round, attempt: a.id }];
      const store = { ...replaceAttempt(d.store, { ...a, occupied: true }), leases };
      return { ...same, dispatcher: { ...d, store }, call: { ...call, phase: 'start' }, result: null };
    }
    case 'start': {
      const a = d.store.attempts.find((x) => x.id === call.attempt);
      if (a === undefined) throw new Error(`start of attempt ${call.attempt} which the store does not hold`);
      const started = sdkStart(executor, a.key, a.id);
      const session: Session = { id: a.id, key: a.key, task: a.task, round: a.round, status: 'running' };
      const attempted = replaceAttempt(d.store, { ...a, status: 'started' });
      const store = { ...attempted, sessions: [...attempted.sessions.filter((s) => s.id !== a.id), session] };
      return {
        dispatcher: { store, locks: withoutLock(d.locks, command.task, caller) },
        executor: started.executor,
        call: null,
        result: { kind: 'started', attempt: a.id, coalesced: started.coalesced },
        created: false,
      };
    }
  }
}

/** Ends an attempt's execution: the attempt turns `status`, its occupancy and lease are released, its session follows. */
export function endAttempt(store: DispatcherStore, attemptId: string, status: 'succeeded' | 'cancelled'): DispatcherStore {
  const a = store.attempts.find((x) => x.id === attemptId);
  if (a === undefined) return store;
  const sessionStatus = status === 'succeeded' ? 'completed' : 'cancelled';
  return {
    attempts: store.attempts.map((x) => (x.id === attemptId ? { ...x, status, occupied: false } : x)),
    leases: store.leases.filter((l) => l.attempt !== attemptId),
    sessions: store.sessions.map((s) => (s.id === attemptId && s.status === 'running' ? { ...s, status: sessionStatus } : s)),
  };
}

/** Runs a whole call with no other caller in between (for unit tests and direct use). */
export function dispatchAtomically(
  d: Dispatcher,
  executor: ExecutorState,
  caller: number,
  command: Command,
  rules: DispatcherRules = SOUND_DISPATCHER,
): { dispatcher: Dispatcher; executor: ExecutorState; result: DispatchResult; attemptsCreated: number } {
  let call: DispatchCall | null = enterCall(command);
  let dispatcher = d;
  let ex = executor;
  let created = 0;
  // Four phases at most: check, offer, claim, start.
  for (let i = 0; i < 4 && call !== null; i++) {
    const out = dispatchStep(dispatcher, ex, caller, call, rules);
    dispatcher = out.dispatcher;
    ex = out.executor;
    if (out.created) created++;
    if (out.result !== null) return { dispatcher, executor: ex, result: out.result, attemptsCreated: created };
    call = out.call;
  }
  throw new Error('dispatch did not return within its four phases');
}
