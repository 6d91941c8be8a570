/**
 * An internal error (a fault of outbox-sim's own) ends a command with its
 * own exit code and a line that says whose fault it is, not with exit 1,
 * which a CI gate reads as a violation found (exit-codes.ts).
 */
import { describe, expect, it } from 'vitest';
import { EXIT_INTERNAL, internalErrorText } from './exit-codes.ts';
import { supervise } from './supervisor.ts';

describe('an internal error', () => {
  it('is told in one line that says it is no verdict, with the stack after it', () => {
    const text = internalErrorText(new TypeError("Cannot read properties of undefined (reading 'length')"));
    const [line, ...stack] = text.split('\n');
    expect(line).toBe("outbox-sim: internal error, a fault of outbox-sim's own and no verdict on the rule set: TypeError: Cannot read properties of undefined (reading 'length'); please report it with the command line (and the rule file, if one was given)");
    expect(stack[0]).toMatch(/^TypeError/);
  });

  it('ends a supervised command (a thread that throws) with its exit code, not 1', async () => {
    const lines: string[] = [];
    const code = await supervise(['check'], { entry: new URL('data:text/javascript,throw new Error("boom")'), err: (l) => lines.push(l), budgetSeconds: 5 });
    expect(code).toBe(EXIT_INTERNAL);
    expect(lines.join('\n')).toMatch(/^outbox-sim: internal error, a fault of outbox-sim's own and no verdict on the rule set: Error: boom;/);
  });
});
