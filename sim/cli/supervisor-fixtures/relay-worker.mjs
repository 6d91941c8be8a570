// A command thread that spins synchronously (its event loop never turns, as in a long search) until the
// shared interrupt cell says a signal came; then, when told to answer, it says which and exits with a code of its own.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { attachInterruptCell, interruptExitCode, interruption } = await import('../../interrupt.ts');
attachInterruptCell(workerData.interrupt);
parentPort.postMessage({ stdout: 'ready\n' });
const answer = workerData.argv[0] === 'answer';
const deadline = Date.now() + 20_000;
while ((!answer || interruption() === null) && Date.now() < deadline) {
  // spinning
}
const signal = interruption();
parentPort.postMessage({ stdout: `saw ${signal}\n` });
parentPort.postMessage({ code: signal === null ? 0 : interruptExitCode(signal) - 100 });
