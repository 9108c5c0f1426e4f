/**
 * ZooKeeper: a scratch standalone server on a loopback port. Local process: Debian's `zookeeper`
 * 3.8 package run as `java -cp /usr/share/java/zookeeper.jar ZooKeeperServerMain <zoo.cfg>` (the
 * jar's manifest names every jar it needs), its zoo.cfg and data dir inside the run dir, which the
 * local runtime removes on every exit path. The JVM is started lean (serial GC, C1 only, no
 * hsperfdata file in /tmp that a SIGKILL would leave behind): it answers in ~0.4 s on an idle
 * machine. Container: the same java command in its image (docker/images.json: Debian's jars and
 * JVM, built by scripts/container-engine.sh), its zoo.cfg written into the container, on the host
 * network. Its classpath names the official image's jars too (/apache-zookeeper-<v>-bin/lib).
 * `--topology zookeeper:N` starts an ensemble instead (ensemble.ts: local processes, or a container each).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreUnavailableError } from '../../core/errors.ts';
import { binaryRuns } from '../../stores/binary-runs.ts';
import { spawnServer, waitUntilReady } from '../../stores/server-process.ts';
import type { StoreRecipe } from '../../stores/types.ts';
import { localMemberLauncher } from '../../stores/member-launch.ts';
import { startZkEnsemble } from './ensemble.ts';
import { serverVersion } from './four-letter.ts';
import { CONTAINER_CLASSPATH, javaBinary, jvmOptions, zookeeperJar } from './jvm.ts';
import { zooCfg } from './zk-config.ts';

const INSTALL = 'npm run setup   (runs: apt-get install -y zookeeper, which brings a Java runtime)';

/** Inside a container: its configuration and data. */
const IN_CONTAINER = { cfg: '/tmp/zoo.cfg', dataDir: '/tmp/zookeeper-data' };

export const zookeeperRecipe: StoreRecipe = {
  kind: 'zookeeper',
  container: {
    command: () => [
      'java',
      ...jvmOptions('/tmp'),
      '-cp',
      CONTAINER_CLASSPATH,
      'org.apache.zookeeper.server.ZooKeeperServerMain',
      IN_CONTAINER.cfg,
    ],
    files: (port) => [{ path: IN_CONTAINER.cfg, content: zooCfg(port, IN_CONTAINER.dataDir) }],
    // Debian's jar logs nothing (SLF4J falls back to its no-op logger, and says so as the JVM starts);
    // the official image's logback logs its binding. Either way the runtime then waits for srvr's answer.
    readyLog: /Defaulting to no-operation \(NOP\) logger|binding to port/,
    url: (port) => `zookeeper://127.0.0.1:${port}`,
    version: async (port) => `ZooKeeper ${await serverVersion(port)}`,
    members: startZkEnsemble,
  },
  async missing() {
    if (!(await binaryRuns(javaBinary())))
      return new StoreUnavailableError(
        `no Java runtime ("${javaBinary()} --version" does not run) to start ZooKeeper.`,
        INSTALL,
      );
    if (!existsSync(zookeeperJar()))
      return new StoreUnavailableError(`ZooKeeper's server jar ${zookeeperJar()} is not on this machine.`, INSTALL);
    return null;
  },
  async startLocal(ctx) {
    const members = ctx.request.topology?.members;
    if (members !== undefined)
      return startZkEnsemble({ ...ctx, launch: localMemberLauncher(ctx.dir), peersThroughRelays: true }, members);
    const { port, dir } = ctx;
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    const cfg = join(dir, 'zoo.cfg');
    writeFileSync(cfg, zooCfg(port, dataDir));
    const server = spawnServer({
      label: `zookeeper :${port}`,
      command: javaBinary(),
      args: [...jvmOptions(dir), '-cp', zookeeperJar(), 'org.apache.zookeeper.server.ZooKeeperServerMain', cfg],
      cwd: dir,
    });
    // A loaded machine's JVM can take several seconds to load its classes.
    const version = await waitUntilReady(server, () => serverVersion(port), 60_000);
    return {
      kind: 'zookeeper',
      url: `zookeeper://127.0.0.1:${port}`,
      host: '127.0.0.1',
      port,
      version: `ZooKeeper ${version}`,
      capabilities: { pause: server.pause, resume: server.resume, kill: server.kill },
      // Nothing to keep: the data dir goes with the run dir.
      stop: () => server.stop(0),
    };
  },
};
