/**
 * A cluster store's nodes (--store cluster): each one the target's own `node` member in a process
 * of its own (a holder process that runs `node(env)` and keeps serving), listening on the port the
 * store's layout gives it and reaching its peers only through the harness's link proxies
 * (src/wire/link-mesh.ts). The faults a node can take: SIGSTOP / SIGCONT, SIGKILL, a restart (its
 * state kept or wiped, as the target declares), and its own wall and monotonic clocks skewed or
 * stepped (./node-clock.ts: every node runs with the clock-offset library). Holders are
 * placed on the nodes that are not the lock key's home first, so their lock path crosses a link.
 */
import { rmSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Holder, HolderExit, HolderSpawnOptions } from '../holder/holder.ts';
import type { Scalar } from '../holder/holder-protocol.ts';
import type { NodeDeclaration, NodeReport } from '../../targets/contract.ts';
import type { ClusterLayout } from '../families/cluster/cluster-url.ts';
import type { FaultLog } from '../core/fault-log.ts';
import type { History } from '../core/history.ts';
import { UsageError } from '../core/errors.ts';
import { LINK_FRAMINGS } from '../wire/link-framer.ts';
import { LinkMesh, type NodeAddress } from '../wire/link-mesh.ts';
import { ProcessClock, type ClockOffsets } from '../stores/clock-offset/process-clock.ts';
import { NodeClock } from './node-clock.ts';

export interface ClusterNodesOptions {
  layout: ClusterLayout;
  key: string;
  ttlMs: number;
  params: Record<string, Scalar>;
  history: History;
  faults: FaultLog;
  spawnHolder: (id: string, options?: HolderSpawnOptions) => Promise<Holder>;
}

export class ClusterNodes {
  readonly #live = new Map<string, Holder>();
  readonly #generation = new Map<string, number>();
  readonly #clocks = new Map<string, NodeClock>();
  #declaration: NodeDeclaration | undefined;
  #hasInspect = false;
  #placement: NodeAddress[];
  #home: string | undefined;

  private constructor(
    private readonly options: ClusterNodesOptions,
    readonly links: LinkMesh,
  ) {
    this.#placement = [...options.layout.nodes];
  }

  static async start(options: ClusterNodesOptions): Promise<ClusterNodes> {
    const links = await LinkMesh.start(options.layout.nodes, options.history, options.faults);
    const nodes = new ClusterNodes(options, links);
    try {
      // Each node's clocks are its machine's: their offset files sit in the run dir, beside its state directory.
      for (const node of options.layout.nodes) {
        const clock = await ProcessClock.create(dirname(options.layout.stateDir(node.id)), node.id);
        const process = () => nodes.process(node.id);
        nodes.#clocks.set(node.id, new NodeClock(node.id, clock, process, options.history, options.faults));
      }
      await Promise.all(options.layout.nodes.map((node) => nodes.#startNode(node)));
      await nodes.#place();
    } catch (error) {
      await nodes.close();
      throw error;
    }
    return nodes;
  }

  get ids(): string[] {
    return this.options.layout.nodes.map((node) => node.id);
  }

  get declaration(): NodeDeclaration {
    return this.#declaration!;
  }

  /** Why the harness cannot read the lock through the nodes (no inspect member), or undefined. */
  get unreadable(): string | undefined {
    return this.#hasInspect
      ? undefined
      : 'the target has no inspect member, so the harness cannot ask the nodes who holds the lock and until when (declare inspect(env, key) → { home, holder, token, remainingMs }: targets/contract.ts)';
  }

  /** The lock key's home as the nodes report it (undefined without an inspect member). */
  get home(): string | undefined {
    return this.#home;
  }

  /** The node holder `id` ("A", "B", ...) takes its locks through. */
  nodeOf(holder: string): NodeAddress {
    return this.#placement[(holder.charCodeAt(0) - 65 + this.#placement.length) % this.#placement.length]!;
  }

  /** The process of node `id` now (a restart replaces it). */
  process(id: string): Holder {
    const holder = this.#live.get(id);
    if (!holder) throw new Error(`node ${id} is not running (known: ${this.ids.join(', ')})`);
    return holder;
  }

  /**
   * What each of holder `holder`'s writes cost on the links: every message to or from its node since
   * its previous write (or since it connected), per link, as a note beside the write. With a lock per
   * write that is the lock's cost: the design's claim is two unicast messages for a cold key and
   * none for a repeat lock under a live delegation. Messages between the other nodes do not count;
   * another holder's on the same node (or a recall its node is sent) do.
   */
  traceLockCosts(holder: Holder): void {
    const { history } = this.options;
    const node = this.nodeOf(holder.id).id;
    let since = history.now();
    let write = 0;
    holder.observe((kind) => {
      if (kind !== 'effect') return;
      const until = history.now();
      const messages = history
        .events()
        .filter(
          (e) =>
            e.kind === 'link' &&
            e.t >= since &&
            e.t <= until &&
            (e.detail.from === node || e.detail.to === node) &&
            !String(e.detail.fate).startsWith('forwarded late'),
        );
      const perLink: Record<string, number> = {};
      for (const m of messages) perLink[String(m.detail.link)] = (perLink[String(m.detail.link)] ?? 0) + 1;
      write++;
      const links = Object.entries(perLink).map(([link, n]) => `${link} ${n}`);
      history.add('note', holder.id, {
        text: `${holder.id}'s write #${write} cost ${messages.length} link message(s) to or from its node ${node} since its previous write${links.length ? ` (${links.join(', ')})` : ''}`,
        lockCost: { write, messages: messages.length, perLink },
      });
      since = until;
    });
  }

  /** Every running node's report on `key`, by node id; undefined without an inspect member. */
  async inspect(key: string): Promise<Map<string, NodeReport> | undefined> {
    if (!this.#hasInspect) return undefined;
    const running = [...this.#live].filter(([, holder]) => !holder.exit && !holder.isPaused);
    const answers = await Promise.all(
      running.map(async ([id, holder]) => [id, await holder.call('inspect', [key])] as const),
    );
    const reports = new Map<string, NodeReport>();
    for (const [id, outcome] of answers) if (outcome.ok) reports.set(id, outcome.value as NodeReport);
    return reports;
  }

  /** SIGSTOP node `id` (its process, its timers, its sockets unanswered). */
  pause(id: string) {
    return this.process(id).pause();
  }
  resume(id: string): number {
    return this.process(id).resume();
  }
  /** SIGKILL node `id`; it stays dead until restart(). */
  kill(id: string): Promise<HolderExit> {
    return this.process(id).kill();
  }

  /** Start node `id` again (killed first if it runs), its state directory kept or wiped as the target declares. */
  async restart(id: string): Promise<void> {
    const node = this.options.layout.nodes.find((n) => n.id === id);
    if (!node) throw new Error(`no node ${id} (known: ${this.ids.join(', ')})`);
    const old = this.#live.get(id);
    if (old && !old.exit) await old.kill();
    const keeps = this.#declaration?.restart === 'keeps-state';
    if (!keeps) {
      const dir = this.options.layout.stateDir(id);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
    }
    const record = this.options.faults.apply('store', undefined, `restart ${id}`, {
      node: id,
      state: keeps ? 'kept (the target declares keeps-state)' : 'wiped (the target declares loses-state, or nothing)',
    });
    await this.#startNode(node);
    this.options.faults.lift(record);
  }

  /** Start node `id` again with its clocks offset from its process's start: a machine whose clocks differ from the others'. */
  async restartSkewed(id: string, offsets: Partial<ClockOffsets>): Promise<void> {
    this.clock(id).skew(offsets, true);
    await this.restart(id);
  }

  /** Node `id`'s own wall and monotonic clocks (skew, step, measure). */
  clock(id: string): NodeClock {
    const clock = this.#clocks.get(id);
    if (!clock) throw new Error(`no node ${id} (known: ${this.ids.join(', ')})`);
    return clock;
  }

  async close(): Promise<void> {
    await this.links.close();
    await Promise.all([...this.#live.values()].map((holder) => holder.close(500)));
  }

  async #startNode(node: NodeAddress): Promise<void> {
    const generation = (this.#generation.get(node.id) ?? 0) + 1;
    this.#generation.set(node.id, generation);
    const holder = await this.options.spawnHolder(generation === 1 ? node.id : `${node.id}#${generation}`, {
      env: this.clock(node.id).env,
    });
    const info = await holder.ready;
    if (!info.members.includes('node'))
      throw new UsageError(
        `--store cluster runs the target's own nodes, but the target has no node member (it has: ${info.members.join(', ')}). Add node(env) → { framing }: targets/contract.ts, docs/cluster.md`,
      );
    this.#hasInspect = info.members.includes('inspect');
    this.#live.set(node.id, holder);
    const { key, ttlMs, params, layout } = this.options;
    await holder.init({
      url: `tcp://${node.host}:${node.port}`,
      key,
      ttlMs,
      params,
      node: { index: node.index, id: node.id, stateDir: layout.stateDir(node.id) },
      listen: { host: node.host, port: node.port },
      peers: this.links.peersOf(node.index),
    });
    const started = await holder.call('node');
    const failure = started.ok ? '' : (started.error ?? '');
    if (/EADDRINUSE/.test(failure) && failure.includes(`:${node.port}`))
      // The harness picked the port; another process bound it first: not the target's doing.
      throw new Error(
        `node ${node.id} could not listen on 127.0.0.1:${node.port}, the port the harness picked for it: another process took it first (${failure.split('\n')[0]}). Run again.`,
      );
    if (!started.ok) throw new UsageError(`node ${node.id}'s node(env) failed: ${started.error}`);
    this.#declaration = checkedDeclaration(node.id, started.value);
    this.links.setFraming(this.#declaration.framing);
  }

  /** Holders go to the nodes that are not the key's home first (its home when there is no other). */
  async #place(): Promise<void> {
    const reports = await this.inspect(this.options.key);
    const home = reports?.values().next().value?.home;
    if (home === undefined) return;
    this.#home = home;
    this.#placement = [
      ...this.options.layout.nodes.filter((n) => n.id !== home),
      ...this.options.layout.nodes.filter((n) => n.id === home),
    ];
    this.options.history.add('note', undefined, {
      text: `the key's home is ${home}; holders A, B, C… take locks through ${this.#placement.map((n) => n.id).join(', ')}`,
      home,
    });
  }
}

function checkedDeclaration(id: string, value: unknown): NodeDeclaration {
  const declared = value as Partial<NodeDeclaration> | undefined;
  if (!declared || !LINK_FRAMINGS.includes(declared.framing as never))
    throw new UsageError(
      `node ${id}'s node(env) resolved with ${JSON.stringify(value)}: resolve with { framing: ${LINK_FRAMINGS.map((f) => `'${f}'`).join(' | ')} } once the node listens`,
    );
  return declared as NodeDeclaration;
}
