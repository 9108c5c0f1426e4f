/**
 * The harness's side of one holder's filesystem boundaries (fs-preload.ts in the holder): a unix
 * socket in the store's run dir, where every call the holder makes under env.dir is reported
 * before it runs and once it ran. Each is put in the history (`fs`: "rmdir V310.lock", its form,
 * its result), shown to observers (exploration's trace), offered to armed holds, and answered at
 * once unless a hold keeps it: then the holder's call (or its result) waits until released.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { FaultLog } from '../core/fault-log.ts';
import type { History } from '../core/history.ts';
import type { FsGo, FsReport } from './fs-protocol.ts';
import { FsHold, type FsHoldOptions, type FsMatch } from './fs-hold.ts';
import type { Holder } from './holder.ts';

/** Each holder's boundaries, for what is handed only the holder (an explored point, src/oracle/arm-point.ts). */
const BY_HOLDER = new WeakMap<Holder, FsBoundaries>();

/** Holder `holder`'s filesystem boundaries, when it runs on a file store. */
export function fsBoundariesOf(holder: Holder): FsBoundaries | undefined {
  return BY_HOLDER.get(holder);
}

/** Whether a call's path (relative to the store's directory; "a -> b" for a rename) is the lock's path or inside it. */
export function onLockPath(path: string, lockPath: string): boolean {
  return path.split(' -> ').some((p) => p === lockPath || p.startsWith(`${lockPath}/`));
}

/** "rmdir V310.lock": a call as the evidence and the boundaries name it. */
export const callText = (report: FsReport) => `${report.op} ${report.path}`;

export class FsBoundaries {
  readonly #holds: FsHold[] = [];
  readonly #observers: Array<(report: FsReport) => void> = [];
  readonly #sockets = new Set<Socket>();

  private constructor(
    readonly holder: string,
    readonly socketPath: string,
    private readonly server: Server,
    private readonly history: History,
    private readonly faults: FaultLog,
  ) {
    server.on('connection', (socket) => this.#serve(socket));
  }

  /** Listen on `socketPath` (a path in the store's run dir, removed with it) for holder `holder`'s reports. */
  static async open(holder: Holder, socketPath: string, history: History, faults: FaultLog): Promise<FsBoundaries> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    const boundaries = new FsBoundaries(holder.id, socketPath, server, history, faults);
    BY_HOLDER.set(holder, boundaries);
    return boundaries;
  }

  /** Be told of every call (and result) the holder reports. */
  observe(listener: (report: FsReport) => void): void {
    this.#observers.push(listener);
  }

  /** Keep the holder at the next call matching `match` (or its result, `on: 'result'`) until released. */
  hold(match: FsMatch, options: FsHoldOptions = {}): FsHold {
    const hold = new FsHold(this.holder, match, options, this.faults);
    this.#holds.push(hold);
    return hold;
  }

  #serve(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    let buffered = '';
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end; (end = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(end + 1))
        void this.#onReport(JSON.parse(buffered.slice(0, end)) as FsReport, socket);
    });
  }

  async #onReport(report: FsReport, socket: Socket): Promise<void> {
    const hold = this.#holds.find((h) => h.offer(report));
    this.history.add('fs', this.holder, {
      call: callText(report),
      form: report.form,
      phase: report.phase,
      ...(report.flags ? { flags: report.flags } : {}),
      ...(report.result ? { result: report.result } : {}),
      fate: hold ? 'held' : 'forwarded',
    });
    for (const observe of this.#observers) observe(report);
    if (hold) await hold.released;
    const go: FsGo = { id: report.id };
    if (!socket.destroyed) socket.write(`${JSON.stringify(go)}\n`);
  }

  /** Release every hold, end the connections and remove the socket. */
  async close(): Promise<void> {
    for (const hold of this.#holds) hold.release();
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.socketPath, { force: true });
  }
}
