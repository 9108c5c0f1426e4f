/**
 * A cluster node's own clocks, wall and monotonic, each node on its own: the node's process runs
 * with the clock-offset library (src/stores/clock-offset/process-clock.ts), so Date in the node
 * reads the wall offset and process.hrtime, performance.now and the node's timers the monotonic
 * one. A skew is an offset the node's process starts with (a machine whose clocks differ from the
 * others': ClusterNodes.restartSkewed); a step moves an offset while the node runs (an NTP step of
 * the wall clock, a monotonic clock that jumps ahead: its pending timers fire at once). A monotonic
 * clock never goes back inside a running process (libuv's loop time would run backwards), so while
 * the node runs its monotonic offset only grows. The offsets are the machine's, not the process's:
 * a restarted node keeps them. Every change is a clock fault naming the node (open while its offsets
 * are in force), and `measure` reads both clocks back from inside the node, against the harness's own.
 */
import type { FaultLog, FaultRecord } from '../core/fault-log.ts';
import type { History } from '../core/history.ts';
import type { Holder } from '../holder/holder.ts';
import type { ClockOffsets, ProcessClock } from '../stores/clock-offset/process-clock.ts';

/** Both of a node's clocks as read from inside it, minus the harness's own at the same moment. */
export interface MeasuredOffsets extends ClockOffsets {
  /** The read's round trip (ms): each measured offset is within half of it. */
  roundTripMs: number;
}

const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms}`;

export class NodeClock {
  /** The fault of the offsets in force, while either is not 0: lifted at the next change. */
  #inForce: FaultRecord | undefined;

  constructor(
    readonly node: string,
    private readonly clock: ProcessClock,
    private readonly process: () => Holder,
    private readonly history: History,
    private readonly faults: FaultLog,
  ) {}

  /** The environment the node's process starts with (the clock library and its offset files). */
  get env(): Record<string, string> {
    return this.clock.env;
  }

  /** The offsets as asked. */
  get offsets(): ClockOffsets {
    return this.clock.offsets;
  }

  /**
   * Set either clock's offset from the machine's (a skew): a clock fault on the node, in force until
   * set back. `atStart`: the node's process is (re)started after this, so its monotonic offset may be
   * any; otherwise the process runs and it may only grow.
   */
  skew(offsets: Partial<ClockOffsets>, atStart = false): void {
    if (!atStart && offsets.monotonicMs !== undefined && offsets.monotonicMs < this.clock.offsets.monotonicMs)
      throw new Error(
        `node ${this.node}: its process runs, and a monotonic clock never goes back inside a process; set a lower monotonic offset before it starts (nodes.restartSkewed('${this.node}', …))`,
      );
    this.#change(offsets, 'skewed');
  }

  /** Move either clock by a delta now (a step; the monotonic clock only forward). */
  step(delta: Partial<ClockOffsets>): void {
    if ((delta.monotonicMs ?? 0) < 0)
      throw new Error(
        `node ${this.node}: a monotonic clock never goes back; step it forward (monotonicMs > 0), or skew it before the node's work begins`,
      );
    const now = this.clock.offsets;
    this.#change(
      {
        ...(delta.wallMs !== undefined ? { wallMs: now.wallMs + delta.wallMs } : {}),
        ...(delta.monotonicMs !== undefined ? { monotonicMs: now.monotonicMs + delta.monotonicMs } : {}),
      },
      'stepped',
    );
  }

  /** Both clocks read inside the node (Date.now, process.hrtime) minus the harness's, recorded as a clock-step read. */
  async measure(): Promise<MeasuredOffsets> {
    const wallBefore = Date.now();
    const monoBefore = Number(process.hrtime.bigint()) / 1e6;
    const reply = await this.process().clock({ op: 'read' }, false);
    const monoAfter = Number(process.hrtime.bigint()) / 1e6;
    const wallAfter = Date.now();
    const measured = {
      wallMs: Math.round(reply.wallMs - (wallBefore + wallAfter) / 2),
      monotonicMs: Math.round(reply.hrtimeMs - (monoBefore + monoAfter) / 2),
      roundTripMs: Math.round(monoAfter - monoBefore),
    };
    this.history.add('clock-step', this.node, { op: 'read', asked: this.clock.offsets, measured });
    return measured;
  }

  #change(offsets: Partial<ClockOffsets>, how: 'skewed' | 'stepped'): void {
    const before = this.clock.offsets;
    this.clock.set(offsets);
    const after = this.clock.offsets;
    const words = (['wallMs', 'monotonicMs'] as const)
      .filter((k) => offsets[k] !== undefined)
      .map(
        (k) =>
          `${k === 'wallMs' ? 'wall' : 'monotonic'} clock ${signed(after[k] - before[k])} ms (now ${signed(after[k])})`,
      );
    const record = this.faults.apply('clock', this.node, `${this.node} ${how}: ${words.join(', ')}`, {
      node: this.node,
      before,
      after,
      mechanism: this.clock.mechanism,
    });
    this.history.add('clock-step', this.node, { op: how === 'skewed' ? 'skew' : 'step', before, after });
    // Each fault spans the time its offsets were in force: until the next change, or for good.
    if (this.#inForce) this.faults.lift(this.#inForce);
    this.#inForce = after.wallMs === 0 && after.monotonicMs === 0 ? undefined : record;
    if (!this.#inForce) this.faults.lift(record);
  }
}
