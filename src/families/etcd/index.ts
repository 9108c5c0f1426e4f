/**
 * The etcd family: one scratch etcd member (Debian's etcd-server 3.4.23). A lock is a key (npm
 * etcd3's `Lock`) or a prefix written with its trailing `/` (etcd's Lock RPC, Go's
 * concurrency.Mutex and Election, etcd3's Election: the oldest key under it holds), kept alive by
 * a lease; the harness reads it through the member's JSON gateway (view.ts). The wire is gRPC over
 * HTTP/2, traced per RPC (src/wire/grpc-framer.ts): a keepalive is a renewal, a delete, revoke,
 * Unlock or Resign a release.
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import { isFileLock, isLeaseRow } from '../../stores/store-location.ts';
import type { StoreFamily } from '../family.ts';
import { KEEPALIVES_HELD } from './faults/keepalives-held.ts';
import { LEASE_REVOKED } from './faults/lease-revoked.ts';
import { ETCD_RENEWAL, etcdLockLocations, etcdRelease, touchesEtcd } from './commands.ts';
import { EtcdGateway } from './gateway.ts';
import { EtcdMembersView } from './members-view.ts';
import { LEADER_MOVED } from './faults/leader-moved.ts';
import { MEMBER_FAULTS } from '../member-faults/index.ts';
import { etcdTtlProblem } from './lease-floor.ts';
import { etcdRecipe } from './recipe.ts';
import { etcdReuse } from './reset.ts';
import { etcdClockMs } from './server-clock.ts';
import { describeEtcd, readEtcdLock } from './view.ts';

/** Why a location cannot be an etcd key, or undefined when it is one. */
function unreadable(location: StoreLocation): string | undefined {
  if (typeof location === 'string') return undefined;
  const what = isLeaseRow(location)
    ? `a Postgres lease row (${location.table})`
    : isFileLock(location)
      ? `a file lock (${location.path})`
      : `a Redis hash field (${location.key} ${location.field})`;
  return `storeKey(env) names ${what}, but the store is etcd: return the key the lock lives under ('lock.' + env.key), or the prefix its contenders' keys go under, with its trailing '/' (an etcd Lock or Election name + '/')`;
}

export const etcdFamily: StoreFamily = {
  name: 'etcd',
  // Its own faults, landed by the oracle's --fault NAME at the moment it names (src/faults/registry.ts lists them);
  // on --topology N members, a member paused or killed, the leader among them (src/families/member-faults/).
  faults: [KEEPALIVES_HELD, LEASE_REVOKED, ...MEMBER_FAULTS, LEADER_MOVED],
  recipes: [etcdRecipe],
  describe: (location) => (typeof location === 'string' ? describeEtcd(location) : (unreadable(location) ?? '')),
  unreadable,
  view(store) {
    const gateway = new EtcdGateway(store.url);
    const cluster = store.members ? new EtcdMembersView(store.members) : undefined;
    return {
      lock: async (location) => {
        if (typeof location !== 'string') throw new Error(unreadable(location));
        return cluster ? cluster.lock(location) : readEtcdLock(gateway, location);
      },
      // The member's wall clock by its gateway's Date header (server-clock.ts: up to a second a read).
      clockMs: () => etcdClockMs(store.url),
      ...(store.members ? { members: store.members } : {}),
      close: async () => undefined,
    };
  },
  commands: {
    delete: (location) => (typeof location === 'string' ? etcdRelease(location) : []),
    renewal: () => ETCD_RENEWAL,
    lockLocations: etcdLockLocations,
    touches: (command, location) => typeof location === 'string' && touchesEtcd(command, location),
  },
  ttlProblem: etcdTtlProblem,
  // One member serves several runs of a batch, its keys and leases cleared and verified between them.
  reuse: etcdReuse,
  // etcd3 (grpc-js) reads a trailing slash as part of the port: http://127.0.0.1:PORT, as the recipe gives it.
  holderUrl: (url) => url.replace(/\/$/, ''),
  renewsOnOwnTimer: true,
  // A holder cut off sends no keepalive: its lease (and the lock key with it) lapses on the server's clock.
  lapsesWhenCutOff: true,
  clients: {
    node: ['etcd3'],
    python: ['etcd3'],
    java: ['io.etcd.jetcd'],
    go: ['go.etcd.io/etcd', 'github.com/coreos/etcd'],
  },
};
