/**
 * A Redis/Valkey topology (`--topology`), its nodes local processes or containers (redis-node.ts):
 * `replicated[:R]` (a master and R replicas, each replica reaching its master through a harness
 * link relay, so its replication bytes can be held), `sentinel[:R]` (the same plus three
 * `redis-server --sentinel` watching the master), `redlock[:N]` (N independent masters, each with
 * the clock-offset library so one node's clock can be stepped). Holders connect to a front door (a
 * relay to whichever node is master now) or, for Redlock, to every master; the harness's own
 * probes read every node directly. The relays run in this process on 127.0.0.1 in both runtimes (a
 * container node shares this machine's network), so every link is held the same way.
 */
import type { Redis } from 'ioredis';
import { LinkRelay } from '../../../wire/link-relay.ts';
import type { RuntimeName, StartedStore, StoreRequest } from '../../../stores/types.ts';
import {
  topologyName,
  type FailoverRecord,
  type ReplicationHold,
  type StoreTopology,
  type TopologyRequest,
} from '../../../stores/topology.ts';
import { RedisNode } from './redis-node.ts';
import { onNode, replicationOf, waitFor } from './replication-info.ts';

export const MASTER_NAME = 'lock-oracles';

export async function startRedisTopology(
  request: StoreRequest,
  topology: TopologyRequest,
  runtime: RuntimeName,
): Promise<StartedStore> {
  const began = performance.now();
  const parts = new Parts(runtime);
  try {
    const built =
      topology.kind === 'redlock'
        ? await redlock(request, topology, parts)
        : await replicated(request, topology, parts);
    const first = parts.nodes[0]!;
    return {
      kind: request.kind,
      runtime,
      url: built.endpoints.url,
      host: '127.0.0.1',
      port: Number(new URL(built.endpoints.url).port),
      version: first.version,
      startMs: performance.now() - began,
      capabilities: {},
      topology: built,
      stop: () => built.stop(),
    };
  } catch (error) {
    await parts.stop();
    throw error;
  }
}

/** Everything started so far, stopped together on every path. */
class Parts {
  constructor(readonly runtime: RuntimeName) {}
  readonly nodes: RedisNode[] = [];
  readonly relays: LinkRelay[] = [];
  async stop(): Promise<void> {
    await Promise.all(this.relays.splice(0).map((relay) => relay.close()));
    await Promise.all(this.nodes.splice(0).map((node) => node.stop()));
  }
}

async function redlock(request: StoreRequest, topology: TopologyRequest, parts: Parts): Promise<StoreTopology> {
  const names = Array.from({ length: topology.masters }, (_, i) => `m${i + 1}`);
  parts.nodes.push(
    ...(await Promise.all(
      names.map((name) =>
        RedisNode.start({ kind: request.kind, name, role: 'master', clock: true, runtime: parts.runtime }),
      ),
    )),
  );
  const nodes = [...parts.nodes];
  // Beside the masters, a plain server no node fault touches: where a fencing counter can live.
  const counter = await RedisNode.start({ kind: request.kind, name: 'c1', role: 'counter', runtime: parts.runtime });
  parts.nodes.push(counter);
  return {
    ...common(topology, parts),
    endpoints: { url: nodes[0]!.url, urls: nodes.map((n) => n.url), counterUrl: counter.url },
    master: () => nodes[0]!,
    holdReplication: () => refuse('hold replication', topology),
    replicasCaughtUp: async () => undefined,
    failover: () => refuse('fail over', topology),
  };
}

async function replicated(request: StoreRequest, topology: TopologyRequest, parts: Parts): Promise<StoreTopology> {
  const kind = request.kind;
  // No 5 s wait for more replicas before a diskless full sync: each replica syncs at once.
  const runtime = parts.runtime;
  const master = await RedisNode.start({
    kind,
    name: 'm1',
    role: 'master',
    runtime,
    args: ['--repl-diskless-sync-delay', '0'],
  });
  parts.nodes.push(master);
  const links: LinkRelay[] = [];
  for (let i = 1; i <= topology.replicas; i++) {
    const link = await LinkRelay.start(`replication link r${i} → m1`, master.port);
    parts.relays.push(link);
    links.push(link);
  }
  const replicas = await Promise.all(
    links.map((link, i) =>
      RedisNode.start({
        kind,
        name: `r${i + 1}`,
        role: 'replica',
        runtime,
        args: ['--replicaof', '127.0.0.1', String(link.port), '--repl-diskless-load', 'disabled'],
      }),
    ),
  );
  parts.nodes.push(...replicas);
  await waitFor(
    'every replica in sync with m1',
    10_000,
    async () => (await replicationOf(master)).replicas.filter((r) => r.state === 'online').length === replicas.length,
  );
  const sentinels: RedisNode[] = [];
  if (topology.kind === 'sentinel') {
    sentinels.push(
      ...(await Promise.all(
        ['s1', 's2', 's3'].map((name) =>
          RedisNode.start({ kind, name, role: 'sentinel', runtime, sentinelConfig: () => sentinelConfig(master.port) }),
        ),
      )),
    );
    parts.nodes.push(...sentinels);
    await waitFor('every Sentinel to see the replicas', 10_000, async () =>
      (await Promise.all(sentinels.map((s) => replicasSeenBy(s)))).every((n) => n === replicas.length),
    );
  }
  const front = await LinkRelay.start('topology front door', master.port);
  parts.relays.push(front);
  let current: RedisNode = master;
  const dataNodes = [master, ...replicas];

  const holdReplication = (): ReplicationHold => {
    const holds = links.map((link) => link.hold());
    return {
      since: Math.min(...holds.map((h) => h.since)),
      heldBytes: () => holds.reduce((sum, h) => sum + h.heldBytes, 0),
      lift: () => holds.forEach((h) => h.lift()),
    };
  };

  const failover = async (timeoutMs: number, now: () => number): Promise<FailoverRecord> => {
    const old = current;
    const candidates = dataNodes.filter((n) => n !== old && n.running);
    if (!candidates.length) throw new Error(`no replica left to promote in place of ${old.name}`);
    front.waitForTarget();
    await old.kill();
    const killedAt = now();
    old.role = 'replica';
    let promoted: RedisNode;
    let how: string;
    if (sentinels.length) {
      promoted = await sentinelPromoted(sentinels, candidates, timeoutMs);
      how = `the Sentinels' failover (${sentinels.length} Sentinels, quorum 2) promoted ${promoted.name}`;
    } else {
      promoted = candidates[0]!;
      await onNode(promoted, 'REPLICAOF', 'NO', 'ONE');
      for (const other of candidates.slice(1)) await onNode(other, 'REPLICAOF', '127.0.0.1', String(promoted.port));
      how = `REPLICAOF NO ONE on ${promoted.name}`;
    }
    await waitFor(
      `${promoted.name} to answer as master`,
      timeoutMs,
      async () => (await replicationOf(promoted)).role === 'master',
    );
    const promotedAt = now();
    promoted.role = 'master';
    current = promoted;
    const cut = front.retarget(promoted.port);
    return {
      killed: old.name,
      promoted: promoted.name,
      how,
      redirected: `the front door (${front.port}) kept new connections waiting from the kill, then led them to ${promoted.name} (:${promoted.port}); ${cut} open connection(s) through it were cut, so clients reconnect there`,
      killedAt,
      promotedAt,
    };
  };

  return {
    ...common(topology, parts),
    endpoints: {
      url: `redis://127.0.0.1:${front.port}`,
      urls: [`redis://127.0.0.1:${front.port}`],
      ...(sentinels.length ? { sentinels: sentinels.map((s) => s.url), masterName: MASTER_NAME } : {}),
    },
    master: () => current,
    holdReplication,
    // A write of the harness's own first (its offset past any sync's), then every replica online and
    // acknowledging it: a replica still syncing reports offset 0, as an idle master does.
    replicasCaughtUp: async (timeoutMs) => {
      await onNode(current, 'INCR', 'lock-oracles:replication-probe');
      await waitFor('every replica to acknowledge the master offset', timeoutMs, async () => {
        const info = await replicationOf(current);
        return info.replicas.length > 0 && info.replicas.every((r) => r.state === 'online' && r.offset >= info.offset);
      });
    },
    failover,
  };
}

/** What every topology has: its name, nodes, and the faults on one node. */
function common(topology: TopologyRequest, parts: Parts) {
  const nodes = [...parts.nodes];
  const byName = (name: string) => {
    const node = nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node "${name}" in this topology (${nodes.map((n) => n.name).join(', ')})`);
    return node;
  };
  return {
    request: topology,
    name: topologyName(topology),
    nodes,
    restart: (name: string, downMs: number, now: () => number) => byName(name).restart(downMs, now),
    pause: (name: string) => byName(name).pause(),
    resume: (name: string) => byName(name).resume(),
    stepClock: async (name: string, offsetMs: number) => {
      const clock = byName(name).clock;
      if (!clock) throw new Error(`${name} runs without the clock-offset library: only redlock nodes can be stepped`);
      await clock.setOffsetMs(offsetMs);
    },
    stop: () => parts.stop(),
  };
}

function refuse(what: string, topology: TopologyRequest): never {
  throw new Error(
    `--topology ${topologyName(topology)} has no replicas to ${what}: use --topology replicated or sentinel`,
  );
}

function sentinelConfig(masterPort: number): string {
  return [
    'bind 127.0.0.1',
    `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
    `sentinel down-after-milliseconds ${MASTER_NAME} 200`,
    `sentinel failover-timeout ${MASTER_NAME} 2000`,
    `sentinel parallel-syncs ${MASTER_NAME} 1`,
    '',
  ].join('\n');
}

async function replicasSeenBy(sentinel: RedisNode): Promise<number> {
  const client = sentinel.client();
  try {
    const replicas = (await client.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as unknown[];
    return replicas.length;
  } finally {
    client.disconnect();
  }
}

/** Wait until a majority of the Sentinels name one of `candidates` as the master. */
async function sentinelPromoted(
  sentinels: RedisNode[],
  candidates: RedisNode[],
  timeoutMs: number,
): Promise<RedisNode> {
  let found: RedisNode | undefined;
  await waitFor('the Sentinels to promote a replica', timeoutMs, async () => {
    const ports = await Promise.all(sentinels.map((s) => masterPortSeenBy(s)));
    found = candidates.find((c) => ports.filter((p) => p === c.port).length >= 2);
    return found !== undefined;
  });
  return found!;
}

async function masterPortSeenBy(sentinel: RedisNode): Promise<number | undefined> {
  const client: Redis = sentinel.client();
  try {
    const addr = (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME)) as [string, string] | null;
    return addr ? Number(addr[1]) : undefined;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}
