/**
 * The context an oracle's `play` runs in: the started store, the holders (real processes), the
 * resource, the history and the fault log, plus event-driven waiting. Oracles are written
 * against this and nothing else.
 */
import type { History } from '../core/history.ts';
import type { Resource } from '../core/resource.ts';
import { speaksRedis, type StartedStore } from '../stores/types.ts';
import type { FaultLog } from '../core/fault-log.ts';
import type { Holder } from '../holder/holder.ts';
import type { Scalar } from '../holder/holder-protocol.ts';
import { RedisProbe, type KeyState } from '../stores/redis-probe.ts';
import { describeLocation, keyOf } from '../stores/store-location.ts';
import type { StoreLocation } from '../../targets/contract.ts';
import { assertLoopbackUrl } from '../stores/loopback.ts';
import type { WireProxy } from '../wire/proxy.ts';
import { startScenarioProxy } from '../wire/scenario-proxy.ts';
import type { ExplorePoint } from './explore-point.ts';

export interface ScenarioOptions {
  store: StartedStore;
  key: string;
  ttlMs: number;
  params: Record<string, Scalar>;
  history: History;
  resource: Resource;
  faults: FaultLog;
  /**
   * Spawns (or hands over a pre-spawned) holder process; resolves once it has loaded the target
   * (rejects with a UsageError when it could not, or the target lacks a member the oracle needs).
   */
  spawnHolder: (id: string) => Promise<Holder>;
  progress: (message: string) => void;
  /** `--explore`: the one point this run lands (src/oracle/arm-point.ts); the oracle arms it at its stressed part. */
  point?: ExplorePoint;
}

/** A key as the harness read it, with when (harness ms) the read was sent and answered. */
export interface ObservedKey extends KeyState {
  sentAt: number;
  receivedAt: number;
  /** Harness ms before which the key surely still lives by the store's clock (sentAt + PTTL). */
  liveUntil: number;
}

export interface HolderOptions {
  /** Give this holder another URL than the store's (e.g. its own fault proxy). */
  url?: string;
}

export class Scenario {
  readonly store: StartedStore;
  readonly history: History;
  readonly resource: Resource;
  readonly faults: FaultLog;
  /** The lock key / name every holder is asked to use. */
  readonly key: string;
  readonly ttlMs: number;
  /** The explored point this run lands, if it is one of `--explore`'s runs. */
  readonly point: ExplorePoint | undefined;
  readonly #options: ScenarioOptions;
  readonly #holders = new Map<string, Holder>();
  readonly #connecting = new Map<string, Promise<Holder>>();
  /** Where the target says its lock lives (storeKey), or undefined: under `key` itself. */
  #declared: StoreLocation | undefined;
  /** A wire proxy exists on a Redis store: holders without one get a pass-through proxy. */
  #learnScripts = false;
  #redis: RedisProbe | undefined;
  readonly #closers: Array<() => Promise<void>> = [];

  constructor(options: ScenarioOptions) {
    this.#options = options;
    this.store = options.store;
    this.history = options.history;
    this.resource = options.resource;
    this.faults = options.faults;
    this.key = options.key;
    this.ttlMs = options.ttlMs;
    this.point = options.point;
  }

  /**
   * The holder `id`, connected (its target's connect() has run). An oracle's `later` holders load
   * while the scenario plays: ask for one early and await it where it is needed (the promise may
   * be kept: its failure is not an unhandled rejection meanwhile).
   */
  holder(id: string, options: HolderOptions = {}): Promise<Holder> {
    let connected = this.#connecting.get(id);
    if (!connected) {
      connected = this.#connect(id, options);
      connected.catch(() => undefined);
      this.#connecting.set(id, connected);
    }
    return connected;
  }

  async #connect(id: string, options: HolderOptions): Promise<Holder> {
    // Once a run holds commands at a wire proxy, every other Redis holder talks through a
    // pass-through proxy too: the scripts it loads (EVAL, SCRIPT LOAD) are then learned, so a
    // later EVALSHA of the same script by the held holder is recognised by its body.
    const url = options.url ?? (this.#learnScripts ? (await this.wire(id)).url : this.store.url);
    assertLoopbackUrl(url); // every URL a holder is handed is on this machine, whoever built it
    const holder = await this.#options.spawnHolder(id);
    this.#holders.set(id, holder);
    const declared = await holder.init({ url, key: this.key, ttlMs: this.ttlMs, params: this.#options.params });
    if (declared !== undefined) {
      if (this.#declared !== undefined && JSON.stringify(this.#declared) !== JSON.stringify(declared)) {
        throw new Error(
          `holders disagree on where the lock lives: storeKey(env) gave ${JSON.stringify(this.#declared)} and then ${JSON.stringify(declared)}; it must not depend on env.holder`,
        );
      }
      this.#declared = declared;
    }
    return holder;
  }

  holders(): Holder[] {
    return [...this.#holders.values()];
  }

  /** Harness monotonic ms since the run began. */
  now(): number {
    return this.history.now();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** Poll `condition` every `everyMs` until true (returns true) or `timeoutMs` passes (false). */
  async waitUntil(condition: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 2): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (await condition()) return true;
      if (performance.now() >= deadline) return false;
      await this.sleep(everyMs);
    }
  }

  /** Resolves with the promise's value, or `undefined` after `timeoutMs`. */
  async within<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The harness's own Redis connection to the store (only for Redis/Valkey stores). */
  redis(): RedisProbe {
    if (!speaksRedis(this.store.kind)) {
      throw new Error(`this scenario inspects Redis keys, but the store is ${this.store.kind}`);
    }
    if (!this.#redis) {
      const probe = new RedisProbe(this.store.url);
      this.#redis = probe;
      this.onClose(() => probe.close());
    }
    return this.#redis;
  }

  /** Where the lock lives in the store: the target's storeKey(env) when it declared one, else `key`. */
  get lockLocation(): StoreLocation {
    return this.#declared ?? this.key;
  }

  /** The Redis key the lock lives under (for a hash field: the hash's key). Wire holds look for it. */
  get lockKey(): string {
    return keyOf(this.lockLocation);
  }

  /**
   * One line for a probe that found nothing where the lock should be while a holder held it: the
   * harness cannot judge a key nobody writes. `lookedAfterMs`: how long after the acquire began.
   */
  lockNotFound(when: string, lookedAfterMs?: number): string {
    const where = describeLocation(this.lockLocation);
    if (lookedAfterMs !== undefined && lookedAfterMs >= this.ttlMs) {
      return `${where} found nothing ${when}, but the harness looked ${lookedAfterMs.toFixed(0)} ms after the acquire began, past the ${this.ttlMs} ms TTL: the lease may simply have lapsed (a loaded machine; run again or with a longer --ttl), or the helper keeps its lock elsewhere (declare where with storeKey(env))`;
    }
    return this.#declared !== undefined
      ? `${where} (where the target's storeKey(env) says the lock lives) found nothing ${when}: storeKey does not name the key the helper writes`
      : `${where} found nothing ${when}: the helper keeps its lock elsewhere (a prefixed key, a hash field). Declare where with storeKey(env) in the target (targets/contract.ts), e.g. storeKey: (env) => 'lock.' + env.key`;
  }

  /**
   * Read the lock's location (the target's storeKey, else `key`) from the store and put what was
   * seen in the history. `sentAt`/`receivedAt` bound, in harness time, the instant the store
   * answered: with its PTTL they say until when, at the earliest, the key lives by the store's own
   * clock (`liveUntil`).
   */
  async observeKey(label: string, location: StoreLocation = this.lockLocation): Promise<ObservedKey> {
    const sentAt = this.now();
    const state = await this.redis().keyState(location);
    const receivedAt = this.now();
    const liveUntil = !state.exists ? sentAt : state.pttlMs < 0 ? Number.POSITIVE_INFINITY : sentAt + state.pttlMs;
    this.history.add('store-observed', undefined, { label, key: keyOf(location), ...state, sentAt });
    return { ...state, sentAt, receivedAt, liveUntil };
  }

  /**
   * A wire proxy in front of holder `id`, for faults on its connections alone (drop, blackhole,
   * delay, hold one command). Start it before the holder and give the holder its URL:
   * `s.holder('A', { url: (await s.wire('A')).url })`. Its faults go into the fault log. On Redis,
   * holders started after it (without a URL of their own) get a pass-through proxy each, so every
   * script body that reaches the store is learned (an EVALSHA is recognised by its body).
   */
  async wire(id: string): Promise<WireProxy> {
    if (speaksRedis(this.store.kind)) this.#learnScripts = true;
    const proxy = await startScenarioProxy(id, this.store.url, this.history, this.faults);
    this.onClose(() => proxy.close());
    return proxy;
  }

  /** Register something to close when the run ends (probes, proxies). */
  onClose(close: () => Promise<void>): void {
    this.#closers.push(close);
  }

  note(text: string, detail: Record<string, unknown> = {}): void {
    this.history.add('note', undefined, { text, ...detail });
  }

  /**
   * Marks where a part of the run begins, e.g. a calibration run before the scenario proper:
   * the timeline draws each part as a panel of its own, so the parts are not read as one.
   */
  phase(name: string, text: string): void {
    this.history.add('note', undefined, { text, phase: name });
  }

  /** Records when (harness ms) `holder`'s lease ran out and how that is known; the timeline marks it. */
  leaseRanOut(holder: string, at: number, how: string): void {
    this.history.add('note', holder, {
      text: `${holder}'s lease ran out at ${at.toFixed(1)} ms (${how})`,
      leaseRanOut: at,
      how,
    });
  }

  /** A progress line for a human at a terminal (stderr). */
  progress(message: string): void {
    this.#options.progress(message);
  }

  /** Close holders and probes. Called by the engine on every exit path. */
  async close(): Promise<void> {
    // Closers first: they free what a holder's own close could wait on (a server-side gate, a
    // blackholed proxy).
    for (const close of this.#closers.splice(0).reverse()) await close().catch(() => undefined);
    await Promise.all(this.holders().map((holder) => holder.close()));
  }
}
