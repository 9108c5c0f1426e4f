/**
 * etcd as a store: one scratch member (Debian's `etcd-server` 3.4.23, `/usr/bin/etcd`) on loopback
 * client and peer ports, its data dir inside the run dir, with raft ticks short enough for test
 * leases: a 10 ms heartbeat and a 100 ms election timeout. etcd grants no lease shorter than
 * 1.5 × the election timeout (150 ms here), and its API counts lease TTLs in whole seconds, so the
 * shortest lease a holder can ask for is 1 s (lease-floor.ts). Container: the same command in its
 * image (docker/images.json), on the host network. `--topology etcd:N` starts a cluster instead
 * (cluster.ts: local processes, or a container each).
 */
import { join } from 'node:path';
import { StoreUnavailableError } from '../../core/errors.ts';
import { binaryRuns } from '../../stores/binary-runs.ts';
import { spawnServer, waitUntilReady } from '../../stores/server-process.ts';
import type { StoreRecipe } from '../../stores/types.ts';
import { localMemberLauncher } from '../../stores/member-launch.ts';
import { startEtcdCluster } from './cluster.ts';
import { etcdVersion } from './gateway.ts';
import { etcdBinary, memberArgs } from './member-args.ts';

export const etcdRecipe: StoreRecipe = {
  kind: 'etcd',
  container: {
    // On the host network the peer port is the second free port the runtime picked.
    command: (port, { secondPort }) => ['etcd', ...memberArgs(port, secondPort, '/data/member', 'info')],
    readyLog: /serving client traffic/,
    url: (port) => `http://127.0.0.1:${port}`,
    version: etcdVersion,
    members: startEtcdCluster,
  },
  async missing() {
    const binary = etcdBinary();
    return (await binaryRuns(binary))
      ? null
      : new StoreUnavailableError(
          `${binary} is not installed on this machine.`,
          'npm run setup   (runs: apt-get install -y etcd-server etcd-client)',
        );
  },
  async startLocal(ctx) {
    const members = ctx.request.topology?.members;
    if (members !== undefined)
      return startEtcdCluster({ ...ctx, launch: localMemberLauncher(ctx.dir), peersThroughRelays: true }, members);
    const { port, dir, freePort } = ctx;
    const binary = etcdBinary();
    const server = spawnServer({
      label: `${binary} :${port}`,
      command: binary,
      args: memberArgs(port, await freePort(), join(dir, 'member')),
    });
    const version = await waitUntilReady(server, () => etcdVersion(port));
    return {
      kind: 'etcd',
      url: `http://127.0.0.1:${port}`,
      host: '127.0.0.1',
      port,
      version,
      capabilities: { pause: server.pause, resume: server.resume, kill: server.kill },
      // A scratch member: nothing to keep, so killed at once (its data dir goes with the run dir).
      stop: () => server.stop(0),
    };
  },
};
