/** Where a command writes: stdout for results, stderr for progress and warnings. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** True when stderr is a terminal (progress bars are drawn only there). */
  tty: boolean;
  /** Wall-clock seconds, for reporting only; injected by the process entry point. */
  now?: () => number;
}

/** The process's own streams (the entry point adds the clock). */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  tty: process.stderr.isTTY === true,
};
