/**
 * The JVM a ZooKeeper server runs in, on this machine: which java and which server jar (each can be
 * pointed elsewhere), and the options that start it lean and leave nothing behind. Used by the
 * standalone recipe (recipe.ts, and in its container) and by an ensemble (ensemble.ts, and in containers).
 */

/** The JVM: LOCK_ORACLES_JAVA points at another one. */
export const javaBinary = (): string => process.env.LOCK_ORACLES_JAVA || 'java';
/** The server's jar: LOCK_ORACLES_ZOOKEEPER_JAR points at another build (its manifest must name its dependencies). */
export const zookeeperJar = (): string => process.env.LOCK_ORACLES_ZOOKEEPER_JAR || '/usr/share/java/zookeeper.jar';

/** The server's classpath inside its image: Debian's jar (the local build), then the official image's jars. */
export const CONTAINER_CLASSPATH = '/usr/share/java/zookeeper.jar:/apache-zookeeper-3.8.0-bin/lib/*';

/** JVM options for a quick start and nothing left behind: no /tmp/hsperfdata_<user>/<pid>, temp files in the run dir. */
export function jvmOptions(dir: string): string[] {
  return [
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-XX:-UsePerfData',
    '-Xmx256m',
    `-Djava.io.tmpdir=${dir}`,
    '-Dzookeeper.jmx.log4j.disable=true',
  ];
}
