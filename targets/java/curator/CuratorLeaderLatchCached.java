//CLASSPATH /usr/share/java/curator-recipes.jar:/usr/share/java/slf4j-simple.jar
/*
 * BAD for V315 on --store zookeeper: Curator 5.4's LeaderLatch, each write made when hasLeadership()
 * says so, on a client built with SessionConnectionStateErrorPolicy (Curator's documented choice to
 * keep leadership through a SUSPENDED connection, until the session is LOST). hasLeadership() is a
 * flag the latch keeps from its watch and connection events, not an answer from the server: cut off,
 * the client calls its session lost only a session timeout after it noticed the silence (2/3 of one),
 * so the leader writes on after the server ended its session and the next replica leads.
 * (With the default StandardConnectionStateErrorPolicy the latch steps down at SUSPENDED, before the
 * server's expiry: V315 PASSed it, see docs/zookeeper.md.) Twin of CuratorLeaderLatchFenced.java.
 */
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;

public class CuratorLeaderLatchCached {
  public static final String DESCRIPTION = "Curator 5.4 LeaderLatch (SessionConnectionStateErrorPolicy): each write trusts the cached hasLeadership()";

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
      for (int i = 0; !env.isStopping(); i++) {
        if (latch.hasLeadership()) env.effect("write", Map.of("value", i));
        Thread.sleep(Curator.stepMs(env));
      }
    }
  }

  public void close(LockOracles.Env env) {
    if (client != null) client.close();
  }
}
