/** Where a command writes: stdout for results, stderr for progress and warnings. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** True when stderr is a terminal (progress bars are drawn only there). */
  tty: boolean;
}

/** The process's own streams. */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  tty: process.stderr.isTTY === true,
};
