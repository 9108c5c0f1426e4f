/**
 * A file store's blackhole: every filesystem call a holder makes under env.dir is held before it
 * runs, from `apply` until `lift`, while the holder's process keeps running (V315's cut: A's
 * renewals stall, its other work goes on). Its record has the shape of a wire fault's (what it
 * stopped, from when, until when), so an oracle reads a cut the same on every store.
 */
import type { FaultLog, FaultRecord } from '../core/fault-log.ts';
import type { WireFaultRecord } from '../wire/records.ts';
import type { FsReport } from './fs-protocol.ts';

const SAMPLES = 5;

export class FsStall {
  readonly record: WireFaultRecord;
  readonly lifted: Promise<void>;
  #lift!: () => void;
  readonly #fault: FaultRecord;

  constructor(
    holder: string,
    private readonly faults: FaultLog,
    nowMs: number,
  ) {
    this.record = {
      id: 0,
      holder,
      kind: 'blackhole',
      what: 'every filesystem call under the store directory held before it runs',
      armedMs: nowMs,
      fromMs: nowMs,
      toMs: null,
      connections: [],
      commandsAffected: 0,
      sampleCommands: [],
      refusedConnections: 0,
    };
    this.lifted = new Promise((resolve) => (this.#lift = resolve));
    this.#fault = faults.apply('latch', holder, 'every filesystem call held (a blackhole)', { fs: 'blackhole' });
  }

  get inForce(): boolean {
    return this.record.toMs === null;
  }

  /** A call the holder waits on, while in force: counted, and true (it waits until `lifted`). */
  take(report: FsReport, text: string): boolean {
    if (!this.inForce || report.phase !== 'call') return false;
    this.record.commandsAffected += 1;
    if (this.record.sampleCommands.length < SAMPLES) this.record.sampleCommands.push(text);
    return true;
  }

  /** Let every held call run, and hold no more. Safe to call twice. */
  lift(nowMs: number): void {
    if (!this.inForce) return;
    this.record.toMs = nowMs;
    this.faults.lift(this.#fault, { callsHeld: this.record.commandsAffected });
    this.#lift();
  }
}
