/**
 * The holder's side of its filesystem boundaries' channel: a unix-socket connection to the harness
 * from the holder's main thread. A report the harness need not answer (no hold is armed: the gate,
 * fs-preload.ts) is written and the call goes on at once; an async call that must wait awaits the
 * harness's answer as a promise; a sync one that must wait blocks the thread in fs-sync-wait.ts
 * (a worker thread, started at the first such call: it costs ~100 ms of CPU to start, which no
 * holder pays unless a hold keeps one of its sync calls).
 */
import { connect, type Socket } from 'node:net';
import type { FsGo, FsReport } from './fs-protocol.ts';
import { FsSyncWait } from './fs-sync-wait.ts';

export class FsChannel {
  readonly #socket: Socket;
  readonly #pending = new Map<number, () => void>();
  #syncWait: FsSyncWait | undefined;
  #closed = false;
  /** The last report written while the channel was open (the harness orders the holder's protocol messages after it). */
  #lastSent = 0;

  constructor(private readonly socketPath: string) {
    this.#socket = connect(socketPath);
    this.#socket.unref();
    this.#socket.setNoDelay?.(true);
    this.#socket.setEncoding('utf8');
    let buffered = '';
    this.#socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end; (end = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(end + 1)) {
        const { id } = JSON.parse(buffered.slice(0, end)) as FsGo;
        this.#pending.get(id)?.();
        this.#pending.delete(id);
      }
    });
    this.#socket.on('error', () => this.#close());
    this.#socket.on('close', () => this.#close());
  }

  /** The last report sent, or 0: every message the holder sends after it is handled after it too. */
  get lastSent(): number {
    return this.#lastSent;
  }

  /** Report and go on: the harness records it and answers nothing. */
  send(report: FsReport): void {
    if (this.#closed) return;
    this.#lastSent = report.id;
    this.#socket.write(`${JSON.stringify(report)}\n`);
  }

  /** Report and wait for the harness's go, without blocking the event loop. */
  report(report: FsReport): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.#pending.set(report.id, resolve);
      this.send({ ...report, wait: true });
    });
  }

  /** Report and block this thread until the harness's go (a sync call's boundary). */
  reportSync(report: FsReport): void {
    if (this.#closed) return;
    this.#syncWait ??= new FsSyncWait(this.socketPath);
    this.#lastSent = report.id;
    this.#syncWait.wait({ ...report, wait: true });
  }

  #close(): void {
    this.#closed = true;
    for (const resolve of this.#pending.values()) resolve();
    this.#pending.clear();
  }
}
