/**
 * How a sync filesystem call waits for the harness: the holder's main thread, blocked in
 * Atomics.wait on a SharedArrayBuffer, cannot read a socket itself, so a worker thread (its own
 * isolate, its own unwrapped node:fs) holds a second connection to the harness, relays the report
 * and sets the flag when the answer arrives. A closed socket lets every waiter go.
 */
import { Worker } from 'node:worker_threads';
import type { FsReport } from './fs-protocol.ts';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const waiting = new Map();
const go = (id) => {
  const flag = waiting.get(id);
  waiting.delete(id);
  if (flag) { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); }
};
const socket = connect(workerData.socket);
let buffered = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => {
  buffered += chunk;
  for (let end; (end = buffered.indexOf('\\n')) >= 0; buffered = buffered.slice(end + 1)) go(JSON.parse(buffered.slice(0, end)).id);
});
let closed = false;
const gone = () => { closed = true; for (const id of [...waiting.keys()]) go(id); };
socket.on('error', gone);
socket.on('close', gone);
parentPort.on('message', ({ report, flag }) => {
  waiting.set(report.id, flag);
  if (closed) return go(report.id);
  socket.write(JSON.stringify(report) + '\\n');
});
`;

export class FsSyncWait {
  readonly #worker: Worker;
  #failed = false;

  constructor(socketPath: string) {
    this.#worker = new Worker(WORKER, { eval: true, workerData: { socket: socketPath } });
    this.#worker.unref();
    this.#worker.on('error', () => (this.#failed = true));
  }

  /** Send `report` and block this thread until the harness answers it (or the connection is gone). */
  wait(report: FsReport): void {
    if (this.#failed) return;
    const flag = new Int32Array(new SharedArrayBuffer(4));
    this.#worker.postMessage({ report, flag });
    Atomics.wait(flag, 0, 0);
  }
}
