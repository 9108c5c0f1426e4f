/**
 * The harness's side of one holder's filesystem boundaries (fs-preload.ts in the holder): a unix
 * socket in the store's run dir, where every call the holder makes under env.dir is reported
 * before it runs and once it ran. Each is put in the history (`fs`: "rmdir V310.lock", its form,
 * its result) and shown to observers (exploration's trace). While a hold is armed the holder is
 * gated (told on the protocol pipe, ahead of any later request): each report then waits, is offered to the
 * holds and answered at once unless a hold keeps it, when the holder's call (or its result) waits
 * until released. With none armed a report waits for nothing: the call goes on at once. The
 * holder's protocol messages are handled after the reports sent before them (Holder.orderAfterFsReports).
 */
import { rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { FaultLog } from '../core/fault-log.ts';
import type { History } from '../core/history.ts';
import type { FsGo, FsReport } from './fs-protocol.ts';
import { FsHold, type FsHoldOptions, type FsMatch } from './fs-hold.ts';
import { FsStall } from './fs-stall.ts';
import type { Holder } from './holder.ts';

/** Each holder's boundaries, for what is handed only the holder (an explored point, src/oracle/arm-point.ts). */
const BY_HOLDER = new WeakMap<Holder, FsBoundaries>();

/** Holder `holder`'s filesystem boundaries, when it runs on a file store. */
export function fsBoundariesOf(holder: Holder): FsBoundaries | undefined {
  return BY_HOLDER.get(holder);
}

/** Whether a call's path is the lock's or inside it (the fs family's rule, which explore and holds share). */
export { onLockPath } from '../families/fs/lock-path.ts';

/** "rmdir V310.lock": a call as the evidence and the boundaries name it. */
export const callText = (report: FsReport) => `${report.op} ${report.path}`;

export class FsBoundaries {
  /** Holds armed or holding (a hold let go leaves). */
  #holds: FsHold[] = [];
  /** Blackholes in force (a lifted one leaves). */
  #stalls: FsStall[] = [];
  #gated = false;
  readonly #observers: Array<(report: FsReport) => void> = [];
  readonly #sockets = new Set<Socket>();
  /** The highest report id seen, and who waits for a later one (a protocol message sent after it). */
  #lastSeen = 0;
  #waiters: Array<{ id: number; resolve: () => void }> = [];
  #closed = false;

  private constructor(
    private readonly holderProcess: Holder,
    readonly socketPath: string,
    private readonly server: Server,
    private readonly history: History,
    private readonly faults: FaultLog,
  ) {
    server.on('connection', (socket) => this.#serve(socket));
    holderProcess.orderAfterFsReports((id) => this.#seen(id));
  }

  get holder(): string {
    return this.holderProcess.id;
  }

  /** Listen on `socketPath` (a path in the store's run dir, removed with it) for holder `holder`'s reports. */
  static async open(holder: Holder, socketPath: string, history: History, faults: FaultLog): Promise<FsBoundaries> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    const boundaries = new FsBoundaries(holder, socketPath, server, history, faults);
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
    this.#regate();
    void hold.released.then(() => this.#regate());
    return hold;
  }

  /** Hold every call the holder makes under the directory, from now until the blackhole is lifted. */
  blackhole(): { record: FsStall['record']; lift(): void } {
    const stall = new FsStall(this.holder, this.faults, this.history.now());
    this.#stalls.push(stall);
    this.#regate();
    void stall.lifted.then(() => this.#regate());
    return { record: stall.record, lift: () => stall.lift(this.history.now()) };
  }

  /** Gate the holder while a hold is armed or holding, or a blackhole in force; let it go on freely once none is. */
  #regate(): void {
    this.#holds = this.#holds.filter((hold) => hold.armed || hold.holding);
    this.#stalls = this.#stalls.filter((stall) => stall.inForce);
    const wait = this.#holds.length + this.#stalls.length > 0;
    if (wait === this.#gated) return;
    this.#gated = wait;
    this.holderProcess.gateFs(wait);
  }

  /** Undefined once report `id` was seen (or never can be), else a promise of it. */
  #seen(id: number): Promise<void> | undefined {
    if (id <= this.#lastSeen || this.#closed) return undefined;
    return new Promise((resolve) => this.#waiters.push({ id, resolve }));
  }

  #serve(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => {
      this.#sockets.delete(socket);
      // The holder is gone (or its channel is): no report it sent before a message will come now.
      if (this.#sockets.size === 0) this.#letWaitersGo(Infinity);
    });
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
    // Only a report the holder waits on can be held: one sent before the holder heard of the gate went on already.
    const hold = report.wait ? this.#holds.find((h) => h.offer(report)) : undefined;
    const stall = report.wait && !hold ? this.#stalls.find((st) => st.take(report, callText(report))) : undefined;
    this.history.add('fs', this.holder, {
      call: callText(report),
      form: report.form,
      phase: report.phase,
      ...(report.flags ? { flags: report.flags } : {}),
      ...(report.result ? { result: report.result } : {}),
      ...(report.made ? { made: report.made.path, ino: report.made.ino } : {}),
      fate: hold || stall ? 'held' : 'forwarded',
    });
    for (const observe of this.#observers) observe(report);
    this.#letWaitersGo(report.id);
    if (!report.wait) return;
    if (hold) await hold.released;
    if (stall) await stall.lifted;
    const go: FsGo = { id: report.id };
    if (!socket.destroyed) socket.write(`${JSON.stringify(go)}\n`);
  }

  #letWaitersGo(upTo: number): void {
    this.#lastSeen = Math.max(this.#lastSeen, upTo);
    const due = this.#waiters.filter((w) => w.id <= this.#lastSeen);
    if (!due.length) return;
    this.#waiters = this.#waiters.filter((w) => w.id > this.#lastSeen);
    for (const waiter of due) waiter.resolve();
  }

  /** Release every hold, end the connections and remove the socket. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#letWaitersGo(Infinity);
    for (const hold of [...this.#holds]) hold.release();
    for (const stall of [...this.#stalls]) stall.lift(this.history.now());
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.socketPath, { force: true });
  }
}
