/**
 * What a command computes, apart from how the command line prints it: the
 * object its `--json` prints and its exit code. The CLI prints the one and
 * exits with the other; the library API (sim/api/) returns the object. One
 * function per command computes both, so the two cannot drift apart.
 */
export interface Outcome<T> {
  code: number;
  result: T;
}
