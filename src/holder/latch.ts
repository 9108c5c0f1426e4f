/**
 * A latch: the next time a holder reaches a given point (an effect, a seam) it really blocks
 * there, because the harness withholds its reply until `release()`. `reached` resolves when the
 * holder got there, so a scenario advances on events, not on sleeps.
 */

export interface LatchHit {
  /** Harness monotonic time the holder reached the point. */
  t: number;
  detail: Record<string, unknown>;
}

export class Latch {
  readonly reached: Promise<LatchHit>;
  #hit: LatchHit | undefined;
  #onReached!: (hit: LatchHit) => void;
  #onRelease!: () => void;
  readonly #released: Promise<void>;
  #isReleased = false;

  constructor(
    readonly holder: string,
    readonly point: string,
  ) {
    this.reached = new Promise((resolve) => (this.#onReached = resolve));
    this.#released = new Promise((resolve) => (this.#onRelease = resolve));
  }

  get isReached(): boolean {
    return this.#hit !== undefined;
  }

  get hit(): LatchHit | undefined {
    return this.#hit;
  }

  /** Called by the holder's message loop when the holder arrives; resolves when released. */
  arrive(hit: LatchHit): Promise<void> {
    this.#hit = hit;
    this.#onReached(hit);
    return this.#released;
  }

  release(): void {
    this.#isReleased = true;
    this.#onRelease();
  }

  get isReleased(): boolean {
    return this.#isReleased;
  }
}
