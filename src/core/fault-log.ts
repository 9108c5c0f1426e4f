/** The fault schedule as applied: what was done to whom, when it landed and when it was lifted. */
import type { History } from './history.ts';

export type FaultKind = 'pause' | 'kill' | 'latch' | 'wire' | 'clock' | 'store' | 'shutdown';

export interface FaultRecord {
  id: number;
  kind: FaultKind;
  /** The holder it hit (absent for a store fault). */
  holder?: string;
  /** What it did, in words: "SIGSTOP", "held effect #1", "held seam release:before-delete". */
  action: string;
  appliedAt: number;
  liftedAt?: number;
  detail: Record<string, unknown>;
}

export class FaultLog {
  readonly #records: FaultRecord[] = [];

  constructor(private readonly history: History) {}

  apply(
    kind: FaultKind,
    holder: string | undefined,
    action: string,
    detail: Record<string, unknown> = {},
  ): FaultRecord {
    const record: FaultRecord = {
      id: this.#records.length + 1,
      kind,
      ...(holder ? { holder } : {}),
      action,
      appliedAt: this.history.now(),
      detail,
    };
    this.#records.push(record);
    this.history.add('fault-applied', holder, { fault: record.id, kind, action, ...detail });
    return record;
  }

  lift(record: FaultRecord, detail: Record<string, unknown> = {}): void {
    if (record.liftedAt !== undefined) return;
    record.liftedAt = this.history.now();
    Object.assign(record.detail, detail);
    this.history.add('fault-lifted', record.holder, {
      fault: record.id,
      kind: record.kind,
      action: record.action,
      ...detail,
    });
  }

  records(): readonly FaultRecord[] {
    return this.#records;
  }
}
