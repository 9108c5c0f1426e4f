/**
 * The faults that play their own flow (scenarios/fault-flows.ts): every topology fault the
 * registry declares that A's own stop does not play has a flow there, so an oracle asking for the
 * run's fault never gets a topology fault played as a stop of A; every fault V313's --variant
 * stands for is registered, and the variants with a flow find it by that name.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS, faultNamed, isTopologyFault } from '../src/faults/registry.ts';
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
});
