// A check of a few hundred seeds takes seconds, more than vitest's default 5 s on a busy machine.
export default { test: { testTimeout: 60_000 } };
