//CLASSPATH /usr/share/java/curator-recipes.jar:/usr/share/java/slf4j-simple.jar
/*
 * GOOD for V315 on --store zookeeper: Curator 5.4's LeaderLatch on the same client as its bad twin
 * (SessionConnectionStateErrorPolicy, leadership kept through SUSPENDED), each write made when
 * hasLeadership() says so and fenced by the czxid of the latch's own node (getOurPath()): the leader
 * is the lowest sequential node, so each next leader's node is newer and its czxid larger, and the
 * resource refuses a deposed leader's writes once its successor wrote. Twin of
 * CuratorLeaderLatchCached.java.
 */
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.zookeeper.data.Stat;

public class CuratorLeaderLatchFenced {
  public static final String DESCRIPTION = "Curator 5.4 LeaderLatch: each write fenced by the czxid of the latch's own node";

  private CuratorFramework client;

  public void connect(LockOracles.Env env) throws Exception {
    client = Curator.start(env, new SessionConnectionStateErrorPolicy());
  }

  public String storeKey(LockOracles.Env env) {
    return Curator.lockPath(env);
  }

  public void leader(LockOracles.Env env) throws Exception {
    try (LeaderLatch latch = new LeaderLatch(client, Curator.lockPath(env), env.holder)) {
      latch.start();
      String fencedPath = null;
      long fence = -1;
      for (int i = 0; !env.isStopping(); i++) {
        if (latch.hasLeadership()) {
          String ours = latch.getOurPath();
          if (ours != null && !ours.equals(fencedPath)) { // a new node after a reset: read its czxid once
            Stat stat = client.checkExists().forPath(ours);
            fencedPath = stat == null ? null : ours;
            fence = stat == null ? -1 : stat.getCzxid();
          }
          if (fencedPath != null) env.effect("write", Map.of("value", i, "fence", fence));
        }
        Thread.sleep(Curator.stepMs(env));
      }
    }
  }

  public void close(LockOracles.Env env) {
    if (client != null) client.close();
  }
}
