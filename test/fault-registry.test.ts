/**
 * The fault registry (src/faults/registry.ts): every fault declared once, in the order shrinking
 * uses (smallest first), with the boundary kinds and topologies it lands at; every fault an
 * oracle's --explore names is one the registry declares.
 */
import { describe, expect, it } from 'vitest';
import { whyNotApplicable } from '../src/core/fault.ts';
import { landsAtPoint, landsItself } from '../src/faults/landing.ts';
import { landsAtMessage } from '../src/families/cluster/faults/at-message.ts';
import { cutsOff } from '../src/families/fault-landing.ts';
import { FAMILIES, familyOf } from '../src/families/index.ts';
import { FAULT_ORDER, FAULTS, FAULTS_BY_KIND, faultNamed } from '../src/faults/registry.ts';
import { faultsOnStore } from '../src/oracle/explore-spec.ts';
import { loadAllOracles, loadOracle } from '../src/run/registry.ts';

describe('fault registry', () => {
  it('holds the generic faults and those the families contribute, smallest first, each named once', () => {
    expect(FAULT_ORDER).toEqual([
      'hold-before',
      'hold-reply',
      'hold-message',
      'reply-dropped',
      'connection-killed',
      'clock-ahead',
      'clock-back',
      'leader-moved',
      'pause',
      'pause-in-acquire',
      'member-paused',
      'keepalives-held',
      'leader-paused',
      'pause-node',
      'hold-pings',
      'expire-session',
      'node-clock-ahead',
      'lease-revoked',
      'node-clock-back',
      'delay-write',
      'partition',
      'node-partitioned',
      'member-partitioned',
      'kill-after-reply',
      'master-clock-ahead',
      'member-killed',
      'leader-killed',
      'node-restart',
      'failover',
    ]);
    expect(new Set(FAULTS.map((f) => f.rank)).size).toBe(FAULTS.length);
  });

  it('gives each boundary kind the faults that land there', () => {
    expect(FAULTS_BY_KIND.seam).toEqual([
      'hold-before',
      'keepalives-held',
      'hold-pings',
      'expire-session',
      'lease-revoked',
    ]);
    expect(FAULTS_BY_KIND.fs).toEqual(['hold-before', 'hold-reply', 'kill-after-reply']);
    expect(FAULTS_BY_KIND.message).toEqual(['hold-message', 'pause-node', 'node-clock-ahead', 'node-clock-back']);
    expect(FAULTS_BY_KIND.effect).toEqual([
      'hold-reply',
      'connection-killed',
      'leader-moved',
      'pause',
      'member-paused',
      'keepalives-held',
      'leader-paused',
      'hold-pings',
      'expire-session',
      'lease-revoked',
      'delay-write',
      'partition',
      'member-partitioned',
      'master-clock-ahead',
      'member-killed',
      'leader-killed',
      'node-restart',
      'failover',
    ]);
  });

  it('tells the faults that land themselves (their landing in their own file) from those an oracle flow lands', () => {
    expect(FAULTS.filter(landsItself).map((f) => f.name)).toEqual([
      'connection-killed',
      'leader-moved',
      'member-paused',
      'keepalives-held',
      'leader-paused',
      'hold-pings',
      'expire-session',
      'lease-revoked',
      'member-partitioned',
      'member-killed',
      'leader-killed',
    ]);
    // At an explored point, each generic fault lands itself too (landAt), a cluster's at its link message (landAtMessage); a topology's is landed by its flow.
    expect(FAULTS.filter(landsAtPoint).map((f) => f.name)).toEqual([
      'hold-before',
      'hold-reply',
      'reply-dropped',
      'pause',
      'delay-write',
      'partition',
      'kill-after-reply',
    ]);
    expect(FAULTS.filter(landsAtMessage).map((f) => [f.name, f.stores, f.at])).toEqual([
      ['hold-message', ['cluster'], ['message']],
      ['pause-node', ['cluster'], ['message']],
      ['node-clock-ahead', ['cluster'], ['message']],
      ['node-clock-back', ['cluster'], ['message']],
    ]);
    // A store's own cut-off (V315's "A is cut off" where no wire stands between A and the store).
    expect(FAULTS.filter(cutsOff).map((f) => [f.name, f.stores])).toEqual([['node-partitioned', ['cluster']]]);
    expect(familyOf('cluster').cutOff).toBe('node-partitioned');
    expect(FAMILIES.filter((f) => f.cutOff !== undefined).map((f) => f.name)).toEqual(['cluster']);
  });

  it('says why a fault cannot land somewhere', () => {
    const write = { part: 'job', index: 3, kind: 'effect' as const, name: 'write', nth: 1, text: 'write' };
    const acquire = {
      part: 'job',
      index: 1,
      kind: 'command' as const,
      name: 'EVALSHA',
      nth: 2,
      text: 'EVALSHA',
      keyNth: 2,
    };
    expect(whyNotApplicable(faultNamed('failover'), { topology: 'replicated', boundary: write })).toBeUndefined();
    expect(whyNotApplicable(faultNamed('failover'), { topology: 'redlock', boundary: write })).toMatch(
      /not on redlock/,
    );
    expect(whyNotApplicable(faultNamed('reply-dropped'), { topology: 'single', boundary: write })).toMatch(
      /lands at command boundaries, not at effect ones/,
    );
    expect(whyNotApplicable(faultNamed('pause-in-acquire'), { topology: 'redlock', boundary: acquire })).toMatch(
      /first command/,
    );
    expect(() => faultNamed('no-such-fault')).toThrow(/known: hold-before/);
  });

  it("names only registered faults in every oracle's --explore", async () => {
    const oracles = await loadAllOracles();
    const named = oracles.flatMap((o) => [
      ...(o.explore?.faults ?? []),
      ...(o.explore?.topology?.faults ?? []),
      ...(o.explore?.contenders?.faults ?? []),
    ]);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((f) => !FAULT_ORDER.includes(f))).toEqual([]);
  });

  it("lists an oracle's faults on each store from the families' boundary kinds and the topologies their faults name", async () => {
    const v313 = (await loadOracle('V313')).explore!;
    expect(faultsOnStore(v313, 'redis')).toEqual([
      // connection-killed lands itself where the store can close A's connection (from the registry, on every explorable oracle).
      { where: 'redis', faults: ['hold-before', 'hold-reply', 'connection-killed', 'pause', 'partition'] },
      { where: 'redis --topology replicated', faults: ['failover'] },
      { where: 'redis --topology sentinel', faults: ['failover'] },
      {
        where: 'redis --topology redlock',
        faults: ['pause', 'pause-in-acquire', 'master-clock-ahead', 'node-restart'],
      },
    ]);
    expect(faultsOnStore(v313, 'cluster')).toEqual([
      { where: 'cluster', faults: ['hold-before', 'hold-reply', 'hold-message', 'pause', 'pause-node'] },
    ]);
    expect(faultsOnStore(v313, 'fs')).toEqual([{ where: 'fs', faults: ['hold-before', 'hold-reply', 'pause'] }]);
    // The member faults both coordination families declare: each store lists them under its own members only.
    expect(faultsOnStore(v313, 'etcd').map((line) => line.where)).toEqual(['etcd', 'etcd --topology etcd']);
    expect(faultsOnStore(v313, 'zookeeper').map((line) => line.where)).toEqual([
      'zookeeper',
      'zookeeper --topology zookeeper',
    ]);
    // V317 names no store: A's clock steps before a command, a node's at a link message, each where the family shows those.
    const v317 = (await loadOracle('V317')).explore!;
    expect(faultsOnStore(v317, 'postgres')).toEqual([{ where: 'postgres', faults: ['clock-ahead', 'clock-back'] }]);
    expect(faultsOnStore(v317, 'cluster')).toEqual([
      { where: 'cluster', faults: ['node-clock-ahead', 'node-clock-back'] },
    ]);
    expect(faultsOnStore(v317, 'fs')).toEqual([]);
  });
});
