// The wall clock, in seconds, for reporting only (a summary's seconds, states
// per second). The entry points read it and hand it in: the process
// (outbox-sim.mjs), a supervised command's thread (command-worker.mjs), and
// the library's commands (sim/api/commands.ts loads this file); nothing under
// sim/ or model/ reads a clock, and nothing a run decides depends on one.
export const wallSeconds = () => Number(process.hrtime.bigint()) / 1e9;
