/**
 * Effects held on their way to the resource: the holder reported them (it sent the write), the
 * resource has not received them yet, so they arrive — in the order sent — only when the gate is
 * released. Unlike a latch (the write recorded, its receipt withheld), a held effect is placed in
 * the resource's arrival order at its delivery: a write sent while the holder held its lock can
 * arrive after the next holder's. The holder waits for each one's receipt meanwhile, as it would
 * for a reply that is still on the network.
 */
import type { LatchHit } from './latch.ts';

export interface EffectGateOptions {
  /** Which effect from now is the first one held (1: the next). */
  nth: number;
  /** `one`: only that effect (a delayed write); `from`: it and every effect after it (a partition). */
  scope: 'one' | 'from';
}

export class EffectGate {
  readonly reached: Promise<LatchHit>;
  #onReached!: (hit: LatchHit) => void;
  #hit: LatchHit | undefined;
  #seen = 0;
  #held = 0;
  #released = false;
  #onRelease!: () => void;
  readonly #release: Promise<void>;

  constructor(
    readonly holder: string,
    readonly options: EffectGateOptions,
  ) {
    this.reached = new Promise((resolve) => (this.#onReached = resolve));
    this.#release = new Promise((resolve) => (this.#onRelease = resolve));
  }

  /** In words, for the fault log and progress lines. */
  get what(): string {
    const { nth, scope } = this.options;
    return scope === 'one'
      ? `effect #${nth} from now held on its way to the resource`
      : `effects from #${nth} from now on held on their way to the resource`;
  }

  /** How many effects it has held so far. */
  get heldCount(): number {
    return this.#held;
  }

  get isReached(): boolean {
    return this.#hit !== undefined;
  }

  get isReleased(): boolean {
    return this.#released;
  }

  /** Still waiting for its first effect (neither reached nor released). */
  get armed(): boolean {
    return !this.#released && this.#hit === undefined;
  }

  /**
   * Called for each effect the holder reports, before the resource sees it: resolves when it may
   * go on to the resource (at once when the gate does not hold it). `t` is the harness time it arrived.
   */
  admit(t: number, detail: Record<string, unknown>): Promise<void> | undefined {
    const index = ++this.#seen;
    const { nth, scope } = this.options;
    const holds = !this.#released && (scope === 'one' ? index === nth : index >= nth);
    if (!holds) return undefined;
    this.#held++;
    if (!this.#hit) {
      this.#hit = { t, detail };
      this.#onReached(this.#hit);
    }
    return this.#release;
  }

  /** Deliver every held effect, in the order sent, and hold no more. Safe to call twice. */
  release(): void {
    this.#released = true;
    this.#onRelease();
  }
}
