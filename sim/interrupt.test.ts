import { afterEach, describe, expect, it } from 'vitest';
import { attachInterruptCell, clearInterrupt, clearStale, interruptExitCode, interruption, newInterruptCell, requestInterrupt, requestStale, setInterruptPoll } from './interrupt.ts';

describe('interrupt', () => {
  afterEach(() => clearInterrupt());

  it('records the first signal and maps it to the shell exit code', () => {
    expect(interruption()).toBeNull();
    requestInterrupt('SIGTERM');
    requestInterrupt('SIGINT');
    expect(interruption()).toBe('SIGTERM');
    expect(interruptExitCode('SIGTERM')).toBe(143);
    expect(interruptExitCode('SIGINT')).toBe(130);
  });

  it('reads a request another thread wrote into the shared cell', () => {
    const cell = newInterruptCell();
    attachInterruptCell(cell);
    expect(interruption()).toBeNull();
    Atomics.store(cell, 0, 1);
    expect(interruption()).toBe('SIGINT');
  });

  it('a stale run (a save under --watch) stops like an interrupt, a signal wins over it, and forgetting it keeps the signal', () => {
    let polls = 0;
    setInterruptPoll(() => {
      if (++polls === 2) requestStale();
    });
    try {
      expect(interruption()).toBeNull();
      expect(interruption()).toBe('save');
      expect(interruptExitCode('save')).toBe(130);
      const cell = newInterruptCell();
      attachInterruptCell(cell);
      Atomics.store(cell, 0, 2);
      expect(interruption()).toBe('SIGTERM');
      clearStale();
      expect(interruption()).toBe('SIGTERM');
      Atomics.store(cell, 0, 0);
      expect(interruption()).toBeNull();
    } finally {
      setInterruptPoll(null);
    }
  });
});
