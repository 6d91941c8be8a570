/** CPU seconds (user and system, every thread) this process has used so far: on a shared machine, steadier than wall time. */
export function processCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
