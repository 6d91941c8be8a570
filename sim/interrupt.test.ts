import { afterEach, describe, expect, it } from 'vitest';
import { attachInterruptCell, clearInterrupt, interruptExitCode, interruption, newInterruptCell, requestInterrupt } from './interrupt.ts';

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
});
