/*
 * Apache Curator 5.4 (Debian's libcurator-recipes-java) on the harness's ZooKeeper: one
 * CuratorFramework per holder, its session timeout the run's TTL (env.ttlMs; the server's floor is
 * 200 ms), on the URL the harness hands out (zookeeper://host:port, A's or B's wire proxy) made a
 * connect string. The lock's path is /locks/<key>, what storeKey returns for the harness to read.
 * Not a reference by itself: the Curator*.java targets beside it use it.
 */
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.RetryNTimes;

final class Curator {
  private Curator() {}

  /** The lock's (or the election's) ZooKeeper path for the oracle's key. */
  static String lockPath(LockOracles.Env env) {
    return "/locks/" + env.key;
  }

  /** A started client with a live session, or an exception naming the URL when none comes in 10 s. */
  static CuratorFramework start(LockOracles.Env env) throws InterruptedException {
    return start(env, new StandardConnectionStateErrorPolicy());
  }

  /** The same, with the policy that says which connection states the recipes treat as lost. */
  static CuratorFramework start(LockOracles.Env env, ConnectionStateErrorPolicy policy) throws InterruptedException {
    URI url = URI.create(env.url);
    if (!"zookeeper".equals(url.getScheme()) || url.getPort() < 0) {
      throw new IllegalArgumentException("expected a zookeeper://host:port URL (run with --store zookeeper), got " + env.url);
    }
    CuratorFramework client = CuratorFrameworkFactory.builder()
        .connectString(url.getHost() + ":" + url.getPort())
        .sessionTimeoutMs((int) env.ttlMs)
        .connectionTimeoutMs((int) env.ttlMs)
        .retryPolicy(new RetryNTimes(3, 50))
        .connectionStateErrorPolicy(policy)
        .build();
    client.start();
    if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
      client.close();
      throw new IllegalStateException("no ZooKeeper session at " + env.url + " within 10 s");
    }
    return client;
  }

  /** The job's parameters (V312, V313, V315): how many writes (`steps`, default 3), and the work after each, ms (`stepMs`, default 20). */
  static int steps(LockOracles.Env env) {
    return whole(env, "steps", 3, 1);
  }

  static int stepMs(LockOracles.Env env) {
    return whole(env, "stepMs", 20, 0);
  }

  /** A parameter as a whole number at least `min` (a JSON number or the command line's string). */
  private static int whole(LockOracles.Env env, String name, int fallback, int min) {
    Object raw = env.param(name, fallback);
    double value = raw instanceof Number number ? number.doubleValue() : Double.parseDouble(String.valueOf(raw));
    if (value != Math.rint(value) || value < min) {
      throw new IllegalArgumentException("parameter " + name + " must be an integer >= " + min + " (got " + raw + "); pass e.g. --" + name + " " + fallback);
    }
    return (int) value;
  }
}
