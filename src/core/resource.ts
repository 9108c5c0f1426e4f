/**
 * The protected resource, owned by the harness. Every effect a holder performs arrives here; the
 * order of arrival is the run's ordering truth. An effect carrying a fencing token older than the
 * newest token seen is rejected, as a fenced store (`WHERE fence <= :token`) would reject it.
 */
import type { EffectDetail, EffectReceipt } from '../../targets/contract.ts';

export interface EffectRecord {
  /** Arrival order at the resource (1, 2, ...). */
  seq: number;
  /** Harness monotonic time of arrival (ms since the run began). */
  t: number;
  /** The reporting holder's own performance.now() when it reported the effect (durations within one holder). */
  holderAt?: number;
  holder: string;
  name: string;
  fence?: number;
  value?: unknown;
  accepted: boolean;
  reason?: string;
}

export class Resource {
  readonly #effects: EffectRecord[] = [];
  #newestFence: number | undefined;

  record(
    holder: string,
    name: string,
    detail: EffectDetail,
    t: number,
    holderAt?: number,
  ): EffectRecord & EffectReceipt {
    const seq = this.#effects.length + 1;
    const record: EffectRecord = {
      seq,
      t,
      ...(holderAt !== undefined ? { holderAt } : {}),
      holder,
      name,
      accepted: true,
    };
    if (detail.value !== undefined) record.value = detail.value;
    if (typeof detail.fence === 'number') {
      record.fence = detail.fence;
      if (this.#newestFence !== undefined && detail.fence < this.#newestFence) {
        record.accepted = false;
        record.reason = `stale fencing token ${detail.fence} < newest ${this.#newestFence}`;
      } else {
        this.#newestFence = detail.fence;
      }
    }
    this.#effects.push(record);
    return record;
  }

  effects(): readonly EffectRecord[] {
    return this.#effects;
  }

  /** Effects by `holder` that arrived after resource position `afterSeq` and were accepted. */
  acceptedAfter(holder: string, afterSeq: number): EffectRecord[] {
    return this.#effects.filter((e) => e.holder === holder && e.seq > afterSeq && e.accepted);
  }
}
