/**
 * How every bench section is written: each line printed as it is measured
 * (a long bench shows its progress) and kept, so the section can replace
 * its part of BENCHMARKS.md at the end.
 */
export interface SectionLog {
  lines: string[];
  log: (line: string) => void;
}

export function sectionLog(): SectionLog {
  const lines: string[] = [];
  return {
    lines,
    log: (line) => {
      lines.push(line);
      process.stdout.write(`${line}\n`);
    },
  };
}
