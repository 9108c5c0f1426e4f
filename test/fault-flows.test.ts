/**
 * The faults that play their own flow (scenarios/fault-flows.ts): every topology fault the
 * registry declares that A's own stop does not play has a flow there, so an oracle asking for the
 * run's fault never gets a topology fault played as a stop of A; every fault V313's --variant
 * stands for is registered, and the variants with a flow find it by that name. V315 arms a flow
 * once A holds its lease (onceLocked): the failover offers that moment, holding A at a point by a
 * fault that lands there, and it lands on exactly the topologies whose pace declares a failover.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS, FAULTS_BY_KIND, faultNamed, isTopologyFault } from '../src/faults/registry.ts';
import { TOPOLOGY_KINDS } from '../src/stores/topology.ts';
import { topologyPace } from '../src/stores/topology-pace.ts';
import { flowOf } from '../scenarios/fault-flows.ts';
import { faultOfVariant, V313_FAULT_RUNS } from '../oracles/V313/params.ts';

describe('fault flows', () => {
  it("every topology fault not played by A's stop has its flow; the faults A's stop plays have none", () => {
    const topologyFaults = FAULTS.filter((f) => isTopologyFault(f.name)).map((f) => f.name);
    expect(topologyFaults).toEqual(['pause-in-acquire', 'master-clock-ahead', 'node-restart', 'failover']);
    expect(topologyFaults.filter((name) => flowOf(name) === undefined)).toEqual([]);
    expect(FAULTS.filter((f) => !isTopologyFault(f.name) && flowOf(f.name) !== undefined)).toEqual([]);
    expect(flowOf(undefined)).toBeUndefined();
  });

  it("V313's --variant aliases name registered faults, and a flow's variant finds that flow", () => {
    for (const fault of Object.keys(V313_FAULT_RUNS)) expect(faultNamed(fault).name).toBe(fault);
    expect(flowOf(faultOfVariant('failover'))).toBe(flowOf('failover'));
    expect(flowOf(faultOfVariant('quorum'))).toBe(flowOf('node-restart'));
    expect(flowOf(faultOfVariant('pause-in-acquire'))).toBe(flowOf('pause-in-acquire'));
    for (const plain of ['pause', 'partition', 'delay-write', 'renewal-wire', 'shutdown', 'staged'])
      expect(flowOf(faultOfVariant(plain))).toBeUndefined();
  });

  it('the flows V315 arms once A leads: the failover, held at a point where its declaration lands, on the topologies that fail over', async () => {
    const armable = FAULTS.filter((f) => flowOf(f.name)?.onceLocked !== undefined).map((f) => f.name);
    // Redlock's flows connect A to each master itself (prepare's aConnects): no moment after A leads.
    expect(armable).toEqual(['failover']);
    const failover = faultNamed('failover');
    const failsOver = TOPOLOGY_KINDS.filter((kind) => topologyPace(kind).failoverSlowerByMs !== undefined);
    expect([...failsOver].sort()).toEqual([...failover.topologies].sort());
    // A failover point's boundary (a command or a write) holds A by a fault that lands at both kinds.
    const held = flowOf('failover')!.onceLocked!.holdsAtPoint;
    for (const kind of failover.at) expect(FAULTS_BY_KIND[kind]).toContain(held);
  });
});
