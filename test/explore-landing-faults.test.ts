/**
 * `--explore` puts the faults that land themselves (src/faults/landing.ts) at an oracle's points from
 * the registry, where their declarations hold (their stores, their boundary kinds) and the oracle's
 * explore spec lands them (`landsFaultsOn`): no oracle names one.
 */
import { describe, expect, it } from 'vitest';
import type { Boundary } from '../src/core/fault.ts';
import { LANDING_FAULTS } from '../src/faults/registry.ts';
import { whyNotOn } from '../src/faults/landing.ts';
import { faultsOnStore, pointFaultsAt, type ExploreSpec } from '../src/oracle/explore-spec.ts';
import { loadOracle } from '../src/run/registry.ts';

const write: Boundary = { part: 'job', index: 2, kind: 'effect', name: 'write', nth: 1, text: 'write' };

describe('--explore and the faults that land themselves', () => {
  it("puts each at V313's boundaries on the stores it lands on, among the spec's own faults by rank", async () => {
    const spec = (await loadOracle('V313')).explore as ExploreSpec;
    expect(pointFaultsAt(spec, write, 'etcd')).toEqual(['pause', 'keepalives-held', 'lease-revoked', 'partition']);
    expect(pointFaultsAt(spec, write, 'zookeeper')).toEqual(['pause', 'hold-pings', 'expire-session', 'partition']);
    expect(pointFaultsAt(spec, write, 'postgres')).toEqual(['hold-before', 'hold-reply', 'connection-killed', 'pause']);
    // None lands on a file store or a cluster of the target's own nodes.
    expect(pointFaultsAt(spec, write, 'fs')).not.toContain('connection-killed');
    expect(pointFaultsAt(spec, write, 'cluster').filter((f) => LANDING_FAULTS.some((l) => l.name === f))).toEqual([]);
    expect(faultsOnStore(spec, 'etcd')[0]!.faults).toEqual(
      expect.arrayContaining(['lease-revoked', 'keepalives-held']),
    );
  });

  it("puts none at an oracle's points whose spec does not land them (its flow passes no landing context)", async () => {
    const spec = (await loadOracle('V315')).explore as ExploreSpec | undefined;
    if (!spec) throw new Error('V315 is explorable: its explore spec went missing');
    expect(spec.landsFaultsOn).toBeUndefined();
    for (const store of ['redis', 'postgres', 'etcd', 'zookeeper'] as const)
      expect(pointFaultsAt(spec, write, store).filter((f) => LANDING_FAULTS.some((l) => l.name === f))).toEqual([]);
  });

  it('declares for every such fault stores it can land on, and refuses the others by name', () => {
    for (const fault of LANDING_FAULTS) {
      expect(fault.stores.length).toBeGreaterThan(0);
      expect(whyNotOn(fault, fault.stores[0]!, fault.topologies[0]!)).toBeUndefined();
    }
    const paused = LANDING_FAULTS.find((f) => f.name === 'member-paused')!;
    expect(whyNotOn(paused, 'etcd', 'single')).toBe(
      'member-paused lands on --topology etcd:N or --topology zookeeper:N, not on one server',
    );
    const revoked = LANDING_FAULTS.find((f) => f.name === 'lease-revoked')!;
    expect(whyNotOn(revoked, 'redis', 'single')).toBe('lease-revoked lands on --store etcd, not on redis');
  });
});
