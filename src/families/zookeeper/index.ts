/**
 * The ZooKeeper family: Debian's zookeeper 3.8 server, standalone. A lock lives at a lock node's
 * path (storeKey returns it, e.g. '/locks/' + env.key): the recipe's parent whose
 * ephemeral-sequential children queue for it, or a single node. The harness reads it with its own
 * client (./view.ts); the wire proxy frames the jute protocol (src/wire/zk-framer.ts), so a ping
 * (the session's keepalive), a delete or closeSession, or a holder's whole traffic can be held.
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import type { StoreFamily } from '../family.ts';
import { EXPIRE_SESSION } from './faults/expire-session.ts';
import { HOLD_PINGS } from './faults/hold-pings.ts';
import { underLock, ZK_RENEWAL, zkDelete, zkLockLocations } from './commands.ts';
import { zookeeperRecipe } from './recipe.ts';
import { zookeeperReuse } from './reset.ts';
import { ZkMembersView } from './members-view.ts';
import { MEMBER_FAULTS } from '../member-faults/index.ts';
import { lockPath, ZkView } from './view.ts';
import { SESSION_FLOOR_MS, TICK_MS } from './zk-config.ts';

function describe(location: StoreLocation): string {
  const path = lockPath(location);
  return path
    ? `getChildren ${path} (or the node itself)`
    : `${JSON.stringify(location)}, which is no ZooKeeper node path`;
}

/** The lock node's path; throws for a location that is none (unreadable() has said why first). */
function pathOf(location: StoreLocation): string {
  const path = lockPath(location);
  if (!path) throw new Error(`a ZooKeeper store has no location ${JSON.stringify(location)}: ${unreadable(location)}`);
  return path;
}

function unreadable(location: StoreLocation): string | undefined {
  if (lockPath(location)) return undefined;
  return `storeKey(env) returned ${JSON.stringify(location)}, but a ZooKeeper lock lives at a node path: return the lock node's absolute path (no trailing slash), e.g. '/locks/' + env.key, the parent your recipe's sequential children are created under`;
}

export const zookeeperFamily: StoreFamily = {
  name: 'zookeeper',
  // Its own faults, landed by the oracle's --fault NAME at the moment it names (src/faults/registry.ts lists them);
  // on --topology N members, a member paused or killed, the leader among them (src/families/member-faults/).
  faults: [HOLD_PINGS, EXPIRE_SESSION, ...MEMBER_FAULTS],
  recipes: [zookeeperRecipe],
  // One server serves several runs of a batch: once every session of a run is gone, its znodes deleted and verified.
  reuse: zookeeperReuse,
  describe,
  unreadable,
  view(store) {
    if (store.members) {
      const ensemble = new ZkMembersView(store.members);
      return {
        lock: async (location) => {
          const state = await ensemble.lock(pathOf(location));
          return { where: `${describe(location)} at the leader ${state.readAt}`, ...state };
        },
        members: store.members,
        close: async () => ensemble.close(),
      };
    }
    const view = new ZkView(store.port);
    return {
      lock: async (location) => ({ where: describe(location), ...(await view.lock(pathOf(location))) }),
      clockMs: () => view.clockMs(),
      close: async () => view.close(),
    };
  },
  commands: {
    delete: (location) => zkDelete(pathOf(location)),
    renewal: () => ZK_RENEWAL,
    lockLocations: zkLockLocations,
    touches: ({ args }, location) => {
      const path = lockPath(location);
      return path !== undefined && args.some((arg) => underLock(arg, path));
    },
  },
  leaseFloor: {
    ms: SESSION_FLOOR_MS,
    why: `a holder's session timeout is its lease, and the scratch server grants none under ${SESSION_FLOOR_MS} ms (minSessionTimeout, 2 × tickTime ${TICK_MS} ms)`,
  },
  holderUrl: (url) => url,
  renewsOnOwnTimer: true,
  // A holder cut off sends no ping: its session (and the lock's ephemeral node) expires on the ensemble's clock.
  lapsesWhenCutOff: true,
  // node-zookeeper-client's CONNECTION_LOSS / SESSION_EXPIRED, kazoo's connect timeout, Curator's ConnectionLoss.
  connectionLost:
    /\bCONNECTION_LOSS\b|\bSESSION_EXPIRED\b|KazooTimeoutError|ConnectionLossException|SessionExpiredException/,
  clients: {
    node: ['node-zookeeper-client', 'zookeeper'],
    python: ['kazoo'],
    java: ['org.apache.curator', 'org.apache.zookeeper'],
    go: ['github.com/go-zookeeper/zk', 'github.com/samuel/go-zookeeper'],
  },
};
