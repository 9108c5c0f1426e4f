/**
 * The holder's side of its filesystem boundaries' channel: a worker thread holding a unix-socket
 * connection to the harness. An async call (callback or promise form) awaits the harness's answer
 * as a promise; a sync call blocks the holder's main thread in Atomics.wait on a SharedArrayBuffer
 * that the worker sets when the answer arrives (the main thread, blocked, could not read any
 * socket itself). The worker runs in its own isolate, with its own unwrapped node:fs.
 */
import { Worker } from 'node:worker_threads';
import type { FsReport } from './fs-protocol.ts';

/** The worker: relays reports to the socket and answers back; a closed socket lets every waiter go. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const waiting = new Map();
const go = (id) => {
  const flag = waiting.get(id);
  waiting.delete(id);
  if (flag) { Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); } else parentPort.postMessage(id);
};
const socket = connect(workerData.socket);
let buffered = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => {
  buffered += chunk;
  for (let end; (end = buffered.indexOf('\\n')) >= 0; buffered = buffered.slice(end + 1)) go(JSON.parse(buffered.slice(0, end)).id);
});
let closed = false;
const gone = () => { closed = true; for (const id of [...waiting.keys()]) go(id); parentPort.postMessage('closed'); };
socket.on('error', gone);
socket.on('close', gone);
parentPort.on('message', ({ report, flag }) => {
  waiting.set(report.id, flag);
  if (closed) return go(report.id);
  socket.write(JSON.stringify(report) + '\\n');
});
`;

export class FsChannel {
  readonly #worker: Worker;
  readonly #pending = new Map<number, () => void>();
  #closed = false;

  constructor(socket: string) {
    this.#worker = new Worker(WORKER, { eval: true, workerData: { socket } });
    this.#worker.unref();
    this.#worker.on('message', (message: number | 'closed') => {
      if (message === 'closed') return this.#close();
      this.#pending.get(message)?.();
      this.#pending.delete(message);
    });
    this.#worker.on('error', () => this.#close());
  }

  /** Report and wait for the harness's go, without blocking the event loop. */
  report(report: FsReport): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.#pending.set(report.id, resolve);
      this.#worker.postMessage({ report, flag: null });
    });
  }

  /** Report and block this thread until the harness's go (a sync call's boundary). */
  reportSync(report: FsReport): void {
    if (this.#closed) return;
    const flag = new Int32Array(new SharedArrayBuffer(4));
    this.#worker.postMessage({ report, flag });
    Atomics.wait(flag, 0, 0);
  }

  #close(): void {
    this.#closed = true;
    for (const resolve of this.#pending.values()) resolve();
    this.#pending.clear();
  }
}
