/**
 * The context an oracle's `play` runs in: the started store, the holders (real processes), the
 * resource, the history and the fault log, plus event-driven waiting. Oracles are written
 * against this and nothing else.
 */
import type { History } from '../core/history.ts';
import type { Resource } from '../core/resource.ts';
import type { StartedStore } from '../stores/types.ts';
import type { FaultLog } from '../core/fault-log.ts';
import type { Holder, HolderSpawnOptions } from '../holder/holder.ts';
import type { Scalar } from '../holder/holder-protocol.ts';
import { keyOf } from '../stores/store-location.ts';
import { familyOf } from '../families/index.ts';
import type {
  ClientSession,
  LockState,
  SessionLock,
  SessionLocks,
  StoreFamily,
  StoreView,
} from '../families/family.ts';
import { UsageError } from '../core/errors.ts';

/** The store's answers an oracle records (read through the Scenario, never from a family's module). */
export type { ClientSession, LockState, SessionLock } from '../families/family.ts';
import { longerTtlFlags } from '../core/params.ts';
import type { StoreLocation } from '../../targets/contract.ts';
import { assertLoopbackUrl } from '../stores/loopback.ts';
import { homeMember } from '../stores/topology-members.ts';
import type { WireProxy } from '../wire/proxy.ts';
import type { CommandPattern, WireCommand } from '../wire/command.ts';
import { startScenarioProxy } from '../wire/scenario-proxy.ts';
import type { ExplorePoint } from './explore-point.ts';
import type { Stop } from '../faults/stops.ts';
import { dirname, isAbsolute, join, normalize, relative } from 'node:path';
import type { OwnerFact } from '../judging/ownership.ts';
import { FsBoundaries } from '../holder/fs-boundaries.ts';
import { ClusterNodes } from './cluster-nodes.ts';
import type { LinkMesh } from '../wire/link-mesh.ts';

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
  spawnHolder: (id: string, options?: HolderSpawnOptions) => Promise<Holder>;
  progress: (message: string) => void;
  /** `--explore`: the one point this run lands (src/oracle/arm-point.ts); the oracle arms it at its stressed part. */
  point?: ExplorePoint;
  /** The fence store's URL (Target.fenceStore), handed to every holder as `env.fenceUrl`. */
  fenceUrl?: string;
}

/** The lock's location as the harness read it, with when (harness ms) the read was sent and answered. */
export interface ObservedLock extends LockState {
  sentAt: number;
  receivedAt: number;
  /**
   * Harness ms until which the lock surely still lives by the store's clock (sentAt + PTTL, or by
   * the app's expiry field). A lock with no expiry at all is known live only at the read
   * (receivedAt): nothing says it lasts, since only a command (or a lease the harness was not told
   * of) ends it.
   */
  liveUntil: number;
}

/** A lock location inferred from a holder's own acquire, and the command it was read from. */
export interface InferredLocation {
  location: StoreLocation;
  from: string;
}

export interface HolderOptions {
  /** Give this holder another URL than the store's (e.g. its own fault proxy). */
  url?: string;
  /** --topology: give this holder other URLs for the masters (e.g. its own relay to each). */
  urls?: string[];
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
  /** Where the lock lives as inferred from a holder's own acquire, when the target declares nothing. */
  #inferred: InferredLocation | undefined;
  /** Each holder's commands as its wire proxy saw them (where one was started), with when. */
  readonly #commands = new Map<string, Array<{ atMs: number; command: WireCommand }>>();
  /** A wire proxy exists on a Redis store: holders without one get a pass-through proxy. */
  #learnScripts = false;
  #view: StoreView | undefined;
  /** The store's family: how the lock is read, which commands act on it, its optional capabilities. */
  readonly family: StoreFamily;
  readonly #closers: Array<() => Promise<void>> = [];
  readonly #fsBoundaries = new Map<string, FsBoundaries>();
  /** A cluster store's nodes (the target's own), started before the first holder connects. */
  #nodes: Promise<ClusterNodes> | undefined;
  #startedNodes: ClusterNodes | undefined;
  /** The explored point's stops armed so far (src/oracle/arm-point.ts), for a landing that said it cannot land there. */
  readonly #pointLandings: Stop[] = [];

  constructor(options: ScenarioOptions) {
    this.#options = options;
    this.store = options.store;
    this.family = familyOf(options.store.kind);
    const ttlProblem = this.family.ttlProblem?.(options.ttlMs);
    if (ttlProblem) throw new UsageError(ttlProblem);
    this.history = options.history;
    this.resource = options.resource;
    this.faults = options.faults;
    this.key = options.key;
    this.ttlMs = options.ttlMs;
    this.point = options.point;
    const floor = this.family.leaseFloor;
    if (floor && options.ttlMs > 0 && options.ttlMs < floor.ms)
      throw new UsageError(
        `--ttl ${options.ttlMs} is under the ${this.family.name} store's floor: ${floor.why}. Give --ttl ${floor.ms} or more.`,
      );
  }

  /** Keeps an explored point's stop (src/oracle/arm-point.ts) and returns it: see pointNotApplicable. */
  notePointLanding(stop: Stop): Stop {
    this.#pointLandings.push(stop);
    return stop;
  }

  /**
   * Why the explored point's fault, which lands itself, could not land where it was put (no lease
   * on the key yet, no ping sent), once a stop said so: the run's judge stage leaves the point out
   * (INCONCLUSIVE, not applicable), whatever the oracle's flow went on to see.
   */
  get pointNotApplicable(): string | undefined {
    return this.#pointLandings.find((stop) => stop.notApplicable !== undefined)?.notApplicable;
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
    const node = this.family.ownNodes && !options.url ? (await this.nodes()).nodeOf(id) : undefined;
    const url = this.family.holderUrl(
      options.url ??
        (node
          ? `tcp://${node.host}:${node.port}`
          : this.#learnScripts
            ? (await this.wire(id)).url
            : this.#storeUrl(id)),
      id,
    );
    assertLoopbackUrl(url); // every URL a holder is handed is on this machine, whoever built it
    const holder = await this.#options.spawnHolder(id);
    this.#holders.set(id, holder);
    if (node) this.#startedNodes!.traceLockCosts(holder);
    const dir = this.family.holderDir?.(this.store);
    const fence = this.#options.fenceUrl;
    if (fence !== undefined) assertLoopbackUrl(fence);
    const init = {
      url,
      key: this.key,
      ttlMs: this.ttlMs,
      params: this.#options.params,
      ...this.#topologyEnv(options.urls),
      ...(fence !== undefined ? { fenceUrl: fence } : {}),
    };
    const fsBoundaries = dir === undefined ? undefined : (await this.#openFsBoundaries(holder, dir)).socketPath;
    const declared = await holder.init(dir === undefined ? init : { ...init, dir, fsBoundaries });
    if (declared !== undefined) this.#declare(declared);
    return holder;
  }

  /** A holder's storeKey(env), taken in as the family names it (a file lock's path relative to the store's directory). */
  #declare(declared: StoreLocation): void {
    const { location, note } = this.family.located?.(declared, this.store) ?? { location: declared };
    if (this.#declared !== undefined) {
      if (JSON.stringify(this.#declared) !== JSON.stringify(location))
        throw new Error(
          `holders disagree on where the lock lives: storeKey(env) gave ${JSON.stringify(this.#declared)} and then ${JSON.stringify(location)}; it must not depend on env.holder`,
        );
      return;
    }
    this.#declared = location;
    if (note === undefined) return;
    this.note(note, { declaredLocation: declared, lockLocation: location });
    this.progress(note);
  }

  /** The store's URL as holder `id` is given it: on a coordination service's members, its own member's (A m1, B m2…). */
  #storeUrl(id: string): string {
    return this.store.members ? homeMember(this.store.members, id).url : this.store.url;
  }

  /** --topology: what a holder connects to besides `url` (every master or member; the Sentinels and the master's name). */
  #topologyEnv(urls?: string[]): { urls?: string[]; sentinels?: string[]; masterName?: string; counterUrl?: string } {
    const members = this.store.members;
    // A coordination service's members: every member's client URL (env.url stays m1's, or its wire proxy's).
    if (members) {
      for (const url of [...members.urls, ...(urls ?? [])]) assertLoopbackUrl(url);
      return { urls: urls ?? [...members.urls] };
    }
    const endpoints = this.store.topology?.endpoints;
    if (!endpoints) return {};
    const counter = endpoints.counterUrl === undefined ? [] : [endpoints.counterUrl];
    for (const url of [...endpoints.urls, ...(urls ?? []), ...(endpoints.sentinels ?? []), ...counter])
      assertLoopbackUrl(url);
    return {
      urls: urls ?? endpoints.urls,
      ...(endpoints.sentinels ? { sentinels: endpoints.sentinels, masterName: endpoints.masterName! } : {}),
      ...(endpoints.counterUrl ? { counterUrl: endpoints.counterUrl } : {}),
    };
  }

  /** A file store: every call holder `id` makes under its directory, reported on a socket in the store's run dir. */
  async #openFsBoundaries(holder: Holder, dir: string): Promise<FsBoundaries> {
    const socket = join(dirname(dir), `${holder.id}.fs.sock`);
    const boundaries = await FsBoundaries.open(holder, socket, this.history, this.faults);
    const id = holder.id;
    this.#fsBoundaries.set(id, boundaries);
    this.onClose(() => boundaries.close());
    return boundaries;
  }

  /** Holder `id`'s filesystem calls (a file store's boundaries: observe them, hold one); a usage error elsewhere. */
  fsBoundaries(id: string): FsBoundaries {
    const boundaries = this.#fsBoundaries.get(id);
    if (!boundaries)
      throw new UsageError(
        this.store.kind === 'fs'
          ? `holder ${id} has no filesystem boundaries yet: await s.holder('${id}') first`
          : `holder ${id} has no filesystem boundaries: only holders on a file store (--store fs) have them`,
      );
    return boundaries;
  }

  /**
   * A cluster store's nodes (--store cluster): the target's `node` member, one process each, every
   * link between them through the harness (`links`); started once, before the first holder connects.
   */
  nodes(): Promise<ClusterNodes> {
    const ownNodes = this.family.ownNodes;
    if (!ownNodes)
      throw new UsageError(`a ${this.family.name} store has no nodes of the target's own: run it with --store cluster`);
    if (!this.#nodes) {
      const { key, ttlMs, history, faults } = this;
      this.#nodes = ClusterNodes.start({
        layout: ownNodes.layout(this.store.url),
        key,
        ttlMs,
        params: this.#options.params,
        history,
        faults,
        spawnHolder: this.#options.spawnHolder,
      }).then((nodes) => {
        this.#startedNodes = nodes;
        this.onClose(() => nodes.close());
        return nodes;
      });
    }
    return this.#nodes;
  }

  /** A cluster store's nodes once they run (for a fault that lands on them); undefined before, and elsewhere. */
  get startedNodes(): ClusterNodes | undefined {
    return this.#startedNodes;
  }

  /** A cluster store's node-to-node links, once its nodes run (hold, delay, drop… a message; partition); undefined elsewhere. */
  get links(): LinkMesh | undefined {
    return this.#startedNodes?.links;
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

  /** The harness's own view of the store (opened on first use, closed with the run). */
  view(): StoreView {
    if (!this.#view) {
      const ownNodes = this.family.ownNodes;
      const view = ownNodes
        ? ownNodes.view(async (key) => (await this.nodes()).inspect(key))
        : this.family.view(this.store);
      this.#view = view;
      this.onClose(() => view.close());
    }
    return this.#view;
  }

  /** The store's session locks (a capability of some families); a usage error where the family has none. */
  sessionLocks(): SessionLocks {
    const capability = this.view().sessionLocks;
    if (!capability)
      throw new UsageError(
        `this scenario inspects session locks, which a ${this.family.name} store does not have: run it with --store postgres`,
      );
    return capability;
  }

  /** Every session lock in the store, recorded in the history under `label`. */
  async observeSessionLocks(label: string): Promise<SessionLock[]> {
    const locks = await this.sessionLocks().locks();
    this.history.add('store-observed', undefined, { label, sessionLocks: locks });
    return locks;
  }

  /** Every client session but the harness's own, recorded in the history under `label`. */
  async observeSessions(label: string): Promise<ClientSession[]> {
    const sessions = await this.sessionLocks().sessions();
    this.history.add('store-observed', undefined, { label, sessions });
    return sessions;
  }

  /** Where the lock lives in the store: the target's storeKey(env) when it declared one, else where it was inferred, else `key`. */
  get lockLocation(): StoreLocation {
    return this.#declared ?? this.#inferred?.location ?? this.key;
  }

  /**
   * With no storeKey declared, where holder `id`'s own acquire took its lock, from the commands its
   * wire proxy saw since `sinceMs` (SET … NX, SETNX, a script's keys): adopted as the lock's
   * location when they name one place, and recorded as inferred. Undefined when the target declares
   * a storeKey, the family cannot tell, `id` has no wire proxy, or they name none; a usage error
   * naming the candidates when they name several.
   */
  inferLockLocation(id: string, sinceMs: number): InferredLocation | undefined {
    const lockLocations = this.family.commands.lockLocations;
    if (this.#declared !== undefined || !lockLocations) return undefined;
    const found = new Map<string, InferredLocation>();
    for (const { atMs, command } of this.#commands.get(id) ?? []) {
      if (atMs < sinceMs) continue;
      for (const location of lockLocations(command)) {
        const name = JSON.stringify(location);
        if (!found.has(name)) found.set(name, { location, from: command.text });
      }
    }
    if (found.size > 1)
      throw new UsageError(
        `the target declares no storeKey and ${id}'s acquire took a lock in ${found.size} places: ${[...found.values()].map((c) => `${this.family.describe(c.location)} (by ${c.from})`).join('; ')}. Say which is the lock: storeKey: (env) => … in the target (targets/contract.ts)`,
      );
    const [inferred] = found.values();
    if (!inferred) return undefined;
    this.#inferred = inferred;
    this.note(
      `where the lock lives was inferred from ${id}'s own acquire (${inferred.from}): ${this.family.describe(inferred.location)}; declare storeKey(env) to say so`,
      {
        inferredLocation: inferred.location,
      },
    );
    return inferred;
  }

  /**
   * The holders' own calls that made or wrote the lock's location so far, as traced (a file
   * store's calls with the inode each left at the lock's path; the values acquires wrote, seen at
   * holders' wire proxies): what src/judging/ownership.ts tells the lock's owner from.
   */
  ownerFacts(): OwnerFact[] {
    const dir = this.family.holderDir?.(this.store);
    const key = this.lockKey;
    const lockPath = dir !== undefined && isAbsolute(key) ? relative(dir, key) : normalize(key);
    const made = this.history
      .filter((e) => e.kind === 'fs' && typeof e.detail.ino === 'number' && e.detail.made === lockPath)
      .map((e) => ({
        holder: e.holder ?? '?',
        atMs: e.t,
        call: String(e.detail.call),
        ino: e.detail.ino as number,
        ...(/^(rename|link) /.test(String(e.detail.call)) ? { moved: true } : {}),
      }));
    const acquireWrites = this.family.commands.acquireWrites;
    const fieldOf = (l: StoreLocation) => (typeof l === 'object' && 'field' in l ? l.field : undefined);
    const here = (l: StoreLocation) => keyOf(l) === key && fieldOf(l) === fieldOf(this.lockLocation);
    const wrote = [...this.#commands].flatMap(([holder, seen]) =>
      seen.flatMap(({ atMs, command }) =>
        (acquireWrites?.(command) ?? [])
          .filter((w) => here(w.location))
          .map((w) => ({
            holder,
            atMs,
            // A script's text carries its body: named by its command and key instead.
            call: w.byScript ? `${command.name} on ${keyOf(w.location)}` : command.text,
            value: w.value,
            ...(w.byScript ? { byScript: true } : {}),
          })),
      ),
    );
    return [...made, ...wrote].sort((x, y) => x.atMs - y.atMs);
  }

  /** The Redis key the lock lives under (for a hash field: the hash's key). Wire holds look for it. */
  get lockKey(): string {
    return keyOf(this.lockLocation);
  }

  /**
   * One line for a probe that found nothing where the lock should be while a holder held it: the
   * harness cannot judge a key nobody writes. `lookedAfterMs`: how long after the acquire began;
   * `free`: what the probe found instead, a record the app marks free (LockState.free).
   */
  lockNotFound(when: string, lookedAfterMs?: number, free?: string): string {
    const where = this.family.describe(this.lockLocation);
    if (free !== undefined)
      return `${where} ${free} ${when}: the app's own record says nobody holds the lock, so the harness cannot judge it there (the helper clears its record before it is done, or storeKey(env) names another record than the one it writes)`;
    if (lookedAfterMs !== undefined && lookedAfterMs >= this.ttlMs) {
      return `${where} found nothing ${when}, but the harness looked ${lookedAfterMs.toFixed(0)} ms after the acquire began, past the ${this.ttlMs} ms TTL: the lease may simply have lapsed (a loaded machine; run again or with a longer lease, e.g. ${longerTtlFlags(lookedAfterMs, this.ttlMs, this.#timeoutMs)}), or the helper keeps its lock elsewhere (declare where with storeKey(env))`;
    }
    return this.#declared !== undefined
      ? `${where} (where the target's storeKey(env) says the lock lives) found nothing ${when}: storeKey does not name the key the helper writes`
      : `${where} found nothing ${when}: the helper keeps its lock elsewhere (a prefixed key, a hash field). Declare where with storeKey(env) in the target (targets/contract.ts), e.g. storeKey: (env) => 'lock.' + env.key`;
  }

  /**
   * The commands that delete or renew the lock where it lives, as the wire proxy recognises them;
   * a usage error where the store's family has none (Postgres has no delete command to hold).
   */
  lockCommands(which: 'delete' | 'renewal'): readonly CommandPattern[] {
    const commands = this.family.commands[which];
    if (!commands) throw new UsageError(`a ${this.family.name} store has no ${which} command the wire proxy can hold`);
    return commands(this.lockLocation);
  }

  /** Whether the harness can read where the lock lives on this store (undefined), or why not. */
  get lockUnreadable(): string | undefined {
    return this.family.unreadable(this.lockLocation) ?? this.#startedNodes?.unreadable;
  }

  /** The run's --timeout, when the oracle has one (a longer --ttl must stay below it). */
  get #timeoutMs(): number | undefined {
    const timeout = this.#options.params.timeout;
    return typeof timeout === 'number' ? timeout : undefined;
  }

  /** Read the lock's location now, without recording it (a poll). */
  async readLock(location: StoreLocation = this.lockLocation): Promise<LockState> {
    const why = this.family.unreadable(location) ?? this.#startedNodes?.unreadable;
    if (why) throw new UsageError(why);
    return this.#namingKernelLockHolders(await this.view().lock(location));
  }

  /** A kernel lock's pid named as the holder it is (a flock lock's evidence: "held by B's pid 4242"). */
  #namingKernelLockHolders(state: LockState): LockState {
    if (!state.kernelLocks?.length) return state;
    const byPid = new Map(this.holders().map((h) => [h.pid, h.id]));
    const kernelLocks = state.kernelLocks.map((lock) => {
      const holder = byPid.get(lock.pid);
      return holder === undefined ? lock : { ...lock, holder };
    });
    return { ...state, kernelLocks };
  }

  /**
   * Read the lock's location (the target's storeKey, else `key`) from the store and put what was
   * seen in the history. `sentAt`/`receivedAt` bound, in harness time, the instant the store
   * answered: with what it has left (its PTTL) they say until when, at the earliest, the lock lives
   * by the store's own clock (`liveUntil`).
   */
  async observeLock(label: string, location: StoreLocation = this.lockLocation): Promise<ObservedLock> {
    const sentAt = this.now();
    const state = await this.readLock(location);
    const receivedAt = this.now();
    const liveUntil = !state.exists ? sentAt : state.pttlMs < 0 ? receivedAt : sentAt + state.pttlMs;
    this.history.add('store-observed', undefined, { label, key: keyOf(location), ...state, sentAt });
    return { ...state, sentAt, receivedAt, liveUntil };
  }

  /**
   * Holder `id`'s wire proxy where its store traffic is commands (the family's boundaries include
   * them); undefined where it is not: a file store's holder makes filesystem calls, held at its
   * filesystem boundaries instead (`fsBoundaries`).
   */
  async wireWhereCommands(id: string): Promise<WireProxy | undefined> {
    return (this.family.boundaryKinds ?? ['command']).includes('command') ? this.wire(id) : undefined;
  }

  /**
   * A wire proxy in front of holder `id`, for faults on its connections alone (drop, blackhole,
   * delay, hold one command). Start it before the holder and give the holder its URL:
   * `s.holder('A', { url: (await s.wire('A')).url })`. Its faults go into the fault log. On Redis,
   * holders started after it (without a URL of their own) get a pass-through proxy each, so every
   * script body that reaches the store is learned (an EVALSHA is recognised by its body).
   */
  async wire(id: string): Promise<WireProxy> {
    if (this.family.ownNodes)
      throw new UsageError(
        `a cluster store has no wire between holder ${id} and a store: a holder talks to its own node, and the cluster's faults are on its node-to-node links (--variant renewal-wire holds one there; --explore puts its points on them)`,
      );
    if (this.family.scriptsByDigest) this.#learnScripts = true;
    const proxy = await startScenarioProxy(id, this.#storeUrl(id), this.history, this.faults);
    const seen: Array<{ atMs: number; command: WireCommand }> = [];
    this.#commands.set(id, seen);
    proxy.on((event) => {
      if (event.type === 'command') seen.push({ atMs: event.atMs, command: event.command });
    });
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
