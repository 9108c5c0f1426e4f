/**
 * `--explore` puts the faults that land themselves (src/faults/landing.ts) at every explorable
 * oracle's points from the registry, where their declarations hold (their stores, their boundary
 * kinds): no oracle names one. An oracle whose moment leaves them no meaning says so
 * (`ownFaultsOnly`: V317's points are clock steps), never by a store list.
 */
import { describe, expect, it } from 'vitest';
import type { Boundary } from '../src/core/fault.ts';
import { LANDING_FAULTS } from '../src/faults/registry.ts';
import { whyNotOn } from '../src/faults/landing.ts';
import { faultsOnStore, pointFaultsAt, selfLandingFaultsOn, type ExploreSpec } from '../src/oracle/explore-spec.ts';
import { loadOracle } from '../src/run/registry.ts';

const write: Boundary = { part: 'job', index: 2, kind: 'effect', name: 'write', nth: 1, text: 'write' };
const landing = (faults: readonly string[]) => faults.filter((f) => LANDING_FAULTS.some((l) => l.name === f));

async function specOf(id: string): Promise<ExploreSpec> {
  const spec = (await loadOracle(id)).explore as ExploreSpec | undefined;
  if (!spec) throw new Error(`${id} is explorable: its explore spec went missing`);
  return spec;
}

describe('--explore and the faults that land themselves', () => {
  it("puts each at V313's boundaries on the stores it lands on, among the spec's own faults by rank", async () => {
    const spec = await specOf('V313');
    expect(pointFaultsAt(spec, write, 'etcd')).toEqual(['pause', 'keepalives-held', 'lease-revoked', 'partition']);
    expect(pointFaultsAt(spec, write, 'zookeeper')).toEqual(['pause', 'hold-pings', 'expire-session', 'partition']);
    expect(pointFaultsAt(spec, write, 'postgres')).toEqual(['hold-before', 'hold-reply', 'connection-killed', 'pause']);
    // None lands on a file store or a cluster of the target's own nodes.
    expect(pointFaultsAt(spec, write, 'fs')).not.toContain('connection-killed');
    expect(landing(pointFaultsAt(spec, write, 'cluster'))).toEqual([]);
    expect(faultsOnStore(spec, 'etcd')[0]!.faults).toEqual(
      expect.arrayContaining(['lease-revoked', 'keepalives-held']),
    );
  });

  it('puts them at the points of every explorable oracle whose moment does not rule them out, with no oracle naming one', async () => {
    for (const id of ['V310', 'V312', 'V313', 'V315']) {
      const spec = await specOf(id);
      expect(spec.ownFaultsOnly, id).toBeUndefined();
      expect(landing(pointFaultsAt(spec, write, 'postgres')), id).toEqual(['connection-killed']);
      expect(landing(pointFaultsAt(spec, write, 'redis')), id).toEqual(['connection-killed']);
      expect(selfLandingFaultsOn(spec, 'etcd'), id).toEqual(['keepalives-held', 'lease-revoked']);
      expect(selfLandingFaultsOn(spec, 'zookeeper'), id).toEqual(['hold-pings', 'expire-session']);
      expect(selfLandingFaultsOn(spec, 'fs'), id).toEqual([]);
    }
    // The acceptance's example: V315 on Postgres, a leader's write with its connection killed there.
    expect(faultsOnStore(await specOf('V315'), 'postgres')[0]!.faults).toContain('connection-killed');
  });

  it('puts none where the moment says they mean nothing (a clock step, a crash), saying why', async () => {
    for (const id of ['V311', 'V317']) {
      const spec = await specOf(id);
      expect(spec.ownFaultsOnly, id).toMatch(/^its points are /);
      for (const store of ['redis', 'postgres', 'etcd', 'zookeeper'] as const)
        expect(landing(pointFaultsAt(spec, write, store)), `${id} on ${store}`).toEqual([]);
    }
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
