//CLASSPATH /usr/share/java/curator-recipes.jar:/usr/share/java/slf4j-simple.jar
/*
 * GOOD for V311 on --store zookeeper: Curator 5.4's InterProcessMutex as a try-lock (acquire with no
 * wait). Its queue nodes are EPHEMERAL_SEQUENTIAL, so a killed holder's node goes with its session
 * and the next holder takes the lock. InterProcessMutex belongs to the thread that acquired it (a
 * release from another thread throws IllegalMonitorStateException) and the shim runs each request
 * on a thread of its own, so every acquire and release runs on the lock's one owner thread. The
 * lease's token is the holding node's path, its fence the node's czxid.
 */
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.data.Stat;

public class CuratorMutexLock {
  public static final String DESCRIPTION = "Curator 5.4 InterProcessMutex try-lock (EPHEMERAL_SEQUENTIAL nodes), acquired and released on one owner thread";

  private final ExecutorService owner = Executors.newSingleThreadExecutor();
  private CuratorFramework client;
  private InterProcessMutex mutex;

  public void connect(LockOracles.Env env) throws Exception {
    client = Curator.start(env);
    mutex = new InterProcessMutex(client, Curator.lockPath(env));
  }

  public String storeKey(LockOracles.Env env) {
    return Curator.lockPath(env);
  }

  public Map<String, Object> acquire(LockOracles.Env env) throws Exception {
    if (!owner.submit(() -> mutex.acquire(0, TimeUnit.MILLISECONDS)).get()) return null; // denied
    String node = mutex.getParticipantNodes().iterator().next();
    Stat stat = client.checkExists().forPath(node);
    Map<String, Object> lease = new HashMap<>();
    lease.put("token", node);
    lease.put("fence", stat == null ? 0L : stat.getCzxid());
    return lease;
  }

  public void release(LockOracles.Env env, Map<String, Object> lease) throws Exception {
    owner.submit(() -> {
      mutex.release();
      return null;
    }).get();
  }

  /** Whether the lease's node is still there and this session's. */
  public boolean extend(LockOracles.Env env, Map<String, Object> lease) throws Exception {
    Stat stat = client.checkExists().forPath((String) lease.get("token"));
    return stat != null && stat.getEphemeralOwner() == client.getZookeeperClient().getZooKeeper().getSessionId();
  }

  public void close(LockOracles.Env env) {
    owner.shutdownNow();
    if (client != null) client.close();
  }
}
