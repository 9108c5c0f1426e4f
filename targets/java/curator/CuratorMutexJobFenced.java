//CLASSPATH /usr/share/java/curator-recipes.jar:/usr/share/java/slf4j-simple.jar
/*
 * GOOD for V313 on --store zookeeper (Curator Tech Note 10's remedy): a job under Curator's
 * InterProcessMutex whose every write carries the lock node's czxid as its fence, for the resource to
 * refuse an older one: a JVM paused past its session is refused once the next holder (a newer node,
 * a larger czxid) wrote. The node is the lowest of getParticipantNodes() once acquire returned, and
 * its ephemeral owner is checked to be this client's session. Twin of CuratorMutexJob.java.
 */
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.data.Stat;

public class CuratorMutexJobFenced {
  public static final String DESCRIPTION = "Curator 5.4 InterProcessMutex around a job, each write fenced by the lock node's czxid";

  private CuratorFramework client;

  public void connect(LockOracles.Env env) throws Exception {
    client = Curator.start(env);
  }

  public String storeKey(LockOracles.Env env) {
    return Curator.lockPath(env);
  }

  public void job(LockOracles.Env env) throws Exception {
    InterProcessMutex mutex = new InterProcessMutex(client, Curator.lockPath(env));
    if (!mutex.acquire(0, TimeUnit.MILLISECONDS)) {
      env.log("the lock is held elsewhere; skipping the job");
      return;
    }
    try {
      long fence = lockNodeCzxid(mutex);
      if (fence < 0) {
        env.log("the lock node is no longer this session's; skipping the job");
        return;
      }
      for (int i = 0; i < Curator.steps(env); i++) {
        LockOracles.EffectReceipt receipt = env.effect("write", Map.of("value", i, "fence", fence));
        if (!receipt.accepted()) {
          env.log("write " + i + " rejected: " + receipt.reason());
          return;
        }
        Thread.sleep(Curator.stepMs(env));
      }
    } finally {
      mutex.release();
    }
  }

  /** The czxid of the lock's holding node when this session owns it, else -1. */
  private long lockNodeCzxid(InterProcessMutex mutex) throws Exception {
    String holding = mutex.getParticipantNodes().iterator().next();
    Stat stat = client.checkExists().forPath(holding);
    long session = client.getZookeeperClient().getZooKeeper().getSessionId();
    return stat != null && stat.getEphemeralOwner() == session ? stat.getCzxid() : -1;
  }

  public void close(LockOracles.Env env) {
    if (client != null) client.close();
  }
}
