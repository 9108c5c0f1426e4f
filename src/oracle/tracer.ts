/**
 * The trace: A's part run alone, once, through A's wire proxy, recording every command A sends
 * (per connection, in order), every seam it reaches and every effect it reports, each under the
 * part it belongs to; on a file store A's filesystem calls instead of commands, on a cluster of the
 * target's own nodes every message on a link to or from A's node; on Redlock's masters
 * (--topology redlock:N) A reaches each master through a wire proxy of its own too, so the requests
 * of its acquire are recorded, in the order they reached the proxies. Positions are what a point
 * later counts to land exactly there.
 */
import type { Holder } from '../holder/holder.ts';
import { namesKey } from '../wire/command.ts';
import type { WireProxy } from '../wire/proxy.ts';
import { startScenarioProxy } from '../wire/scenario-proxy.ts';
import type { Scenario } from './scenario.ts';
import type { Boundary, BoundaryKind } from './explore-point.ts';
import { callText, onLockPath } from '../holder/fs-boundaries.ts';
import { summarizeLink, type LinkMessage } from '../wire/link-match.ts';

export class Tracer {
  readonly boundaries: Boundary[] = [];
  #part: string | undefined;

  /** Holder `id` behind its own wire proxy, everything it does recorded. */
  async holder(s: Scenario, id = 'A'): Promise<Holder> {
    if (s.family.ownNodes) return this.#onItsNode(s, id);
    const wire = await s.wire(id);
    const recordCommands = (proxy: WireProxy) =>
      proxy.on((event) => {
        if (event.type !== 'command') return;
        const { command } = event;
        const onKey = namesKey(command, s.lockKey);
        this.#record('command', command.name, command.text, { connection: event.connection, onKey });
      });
    recordCommands(wire);
    const masters = await this.#masterWires(s, id);
    for (const proxy of masters ?? []) recordCommands(proxy);
    const holder = await s.holder(id, { url: wire.url, ...(masters ? { urls: masters.map((m) => m.url) } : {}) });
    holder.observe((kind, name) => this.#record(kind, name, `${kind} ${name}`));
    // A file store has no wire: A's boundaries are its filesystem calls.
    if (s.store.kind === 'fs')
      s.fsBoundaries(id).observe((call) => {
        if (call.phase === 'call')
          this.#record('fs', call.op, callText(call), { onKey: onLockPath(call.path, s.lockKey) });
      });
    return holder;
  }

  /** On Redlock's masters, a wire proxy in front of holder `id` to each (its env.urls); none on any other store. */
  async #masterWires(s: Scenario, id: string): Promise<WireProxy[] | undefined> {
    const topology = s.store.topology;
    if (topology?.request.kind !== 'redlock') return undefined;
    return Promise.all(
      topology.endpoints.urls.map(async (url) => {
        const proxy = await startScenarioProxy(id, url, s.history, s.faults);
        s.onClose(() => proxy.close());
        return proxy;
      }),
    );
  }

  /** A cluster has no wire between A and a store: A's lock path is the messages its node sends and receives. */
  async #onItsNode(s: Scenario, id: string): Promise<Holder> {
    const nodes = await s.nodes();
    const aNode = nodes.nodeOf(id).id;
    nodes.links.observe((message) => {
      if (message.from === aNode || message.to === aNode) this.#recordMessage(message, aNode, s.lockKey);
    });
    const holder = await s.holder(id);
    holder.observe((kind, name) => this.#record(kind, name, `${kind} ${name}`));
    return holder;
  }

  /** `n3→n1 #1 grant token 1.9f3a2c.4, leaseMs 400, …`: its direction, its place on it in the part, its type and content (the lock key left out). */
  #recordMessage(message: LinkMessage, aNode: string, lockKey: string): void {
    const part = this.#part;
    if (part === undefined) return;
    const onLink = this.boundaries.filter(
      (b) => b.part === part && b.link?.from === message.from && b.link.to === message.to,
    );
    const type = message.type || 'message';
    const nth = onLink.filter((b) => b.name === type).length + 1;
    const text =
      `${message.from}→${message.to} #${onLink.length + 1} ${type} ${summarizeLink(message, lockKey)}`.trimEnd();
    this.#record('message', type, text, { link: { from: message.from, to: message.to, nth, aNode } });
  }

  /** From now on, what A does is recorded under `name` (until the next begin, or end). */
  begin(name: string): void {
    this.#part = name;
  }

  end(): void {
    this.#part = undefined;
  }

  /** Run one part of A's run; what A does meanwhile is recorded under `name`. */
  async part<T>(name: string, run: () => Promise<T>): Promise<T> {
    this.#part = name;
    try {
      return await run();
    } finally {
      this.#part = undefined;
    }
  }

  #record(
    kind: BoundaryKind,
    name: string,
    text: string,
    extra: { connection?: number; onKey?: boolean; link?: Boundary['link'] } = {},
  ): void {
    const part = this.#part;
    if (part === undefined) return;
    const inPart = this.boundaries.filter((b) => b.part === part);
    const nth = inPart.filter((b) => b.kind === kind && b.name === name).length + 1;
    const keyNth = extra.onKey ? inPart.filter((b) => b.onKey).length + 1 : undefined;
    this.boundaries.push({
      part,
      index: inPart.length + 1,
      kind,
      name,
      nth,
      text,
      ...extra,
      ...(keyNth ? { keyNth } : {}),
    });
  }
}
