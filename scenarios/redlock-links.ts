/**
 * One holder's own links to the masters of a Redlock topology (`--topology redlock:N`): a harness
 * byte relay per master, which the holder is handed as its `env.urls` instead of the masters'
 * own addresses (the other holders reach the masters directly). Through them the scenario cuts
 * the holder off from some masters (its requests kept from them, so its acquire can only win the
 * others) or keeps every master's replies from it (its acquire's replies in flight). Each hold
 * goes into the fault log; the relays close with the run. `flowThroughALinks` makes a fault's flow
 * (./fault-flow.ts) that starts A's links before A.
 */
import { UsageError } from '../src/core/errors.ts';
import type { Holder } from '../src/holder/holder.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import type { StoreTopology, TopologyNode } from '../src/stores/topology.ts';
import { LinkRelay, type LinkHold } from '../src/wire/link-relay.ts';
import type { FaultFlow, FlowParams, FlowRecords } from './fault-flow.ts';

/** The Redlock masters of the run's topology; a usage error on any other store. */
export function redlockMasters(s: Scenario, why: string): { topology: StoreTopology; masters: TopologyNode[] } {
  const topology = s.store.topology;
  if (topology?.request.kind !== 'redlock')
    throw new UsageError(`${why} needs independent masters: run it with --topology redlock:5`);
  return { topology, masters: topology.nodes.filter((n) => n.role === 'master') };
}

/** A majority of `n` masters. */
export function quorumOf(n: number): number {
  return Math.floor(n / 2) + 1;
}

/** A holder's links: `urls` to hand it, and the holds the scenario puts on them. */
export interface HolderLinks {
  readonly urls: string[];
  /** Keep the holder's requests from these masters (by name) until `lift`; returns the bytes kept so far, per node. */
  cutOff(nodes: readonly string[]): { kept: () => Record<string, number>; lift: () => void };
  /** Keep every master's replies from the holder; `reached` resolves when each has kept some. */
  holdReplies(): { reached: Promise<void>; kept: () => Record<string, number>; lift: () => void };
}

export async function startHolderLinks(s: Scenario, holder: string, masters: readonly TopologyNode[]) {
  const relays = new Map<string, LinkRelay>();
  for (const node of masters) {
    const relay = await LinkRelay.start(`${holder}'s link to ${node.name}`, node.port, () => s.now());
    relays.set(node.name, relay);
    s.onClose(() => relay.close());
  }
  const relayOf = (name: string): LinkRelay => {
    const relay = relays.get(name);
    if (!relay) throw new Error(`no master "${name}" (${[...relays.keys()].join(', ')})`);
    return relay;
  };
  const holdAll = (names: readonly string[], direction: 'to-client' | 'to-upstream', what: string) => {
    const holds = new Map<string, LinkHold>(names.map((name) => [name, relayOf(name).hold(direction)]));
    const record = s.faults.apply('wire', holder, what, { nodes: names.join(', ') });
    const kept = () => Object.fromEntries([...holds].map(([name, hold]) => [name, hold.heldBytes]));
    return {
      reached: Promise.all([...holds.values()].map((hold) => hold.reached)).then(() => undefined),
      kept,
      lift: () => {
        const bytes = kept();
        for (const hold of holds.values()) hold.lift();
        s.faults.lift(record, bytes);
      },
    };
  };
  const links: HolderLinks = {
    urls: masters.map((node) => `redis://127.0.0.1:${relayOf(node.name).port}`),
    cutOff: (nodes) =>
      holdAll(nodes, 'to-upstream', `${holder} cut off from ${nodes.join(', ')}: its requests kept from them`),
    holdReplies: () =>
      holdAll(
        masters.map((n) => n.name),
        'to-client',
        `every master's replies kept from ${holder}`,
      ),
  };
  return links;
}

/**
 * A fault's flow on Redlock's masters (./fault-flow.ts): A's own links to every master started
 * before A is (a usage error naming `why` off a Redlock topology), then `play` with them.
 */
export function flowThroughALinks<Records extends FlowRecords>(
  why: string,
  play: (s: Scenario, p: FlowParams, a: Holder, b: Holder, aLinks: HolderLinks) => Promise<Records>,
): FaultFlow<Records> {
  return {
    async prepare(s, p) {
      const aLinks = await startHolderLinks(s, 'A', redlockMasters(s, why).masters);
      return { aConnects: { urls: aLinks.urls }, play: ({ a, b }) => play(s, p, a, b, aLinks) };
    },
  };
}
