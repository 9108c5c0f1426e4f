//CLASSPATH /usr/share/java/curator-recipes.jar:/usr/share/java/slf4j-simple.jar
/*
 * BAD for V313 on --store zookeeper (Curator Tech Note 10): a job under Curator's InterProcessMutex
 * as its users write one, take the lock, write, release. InterProcessMutex tells the work nothing
 * when the session ends, so a JVM paused past its session writes on after the next holder took the
 * lock. Twin of CuratorMutexJobFenced.java.
 */
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

public class CuratorMutexJob {
  public static final String DESCRIPTION = "Curator 5.4 InterProcessMutex around a job, writes unfenced";

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
      for (int i = 0; i < Curator.steps(env); i++) {
        env.effect("write", Map.of("value", i));
        Thread.sleep(Curator.stepMs(env));
      }
    } finally {
      mutex.release();
    }
  }

  public void close(LockOracles.Env env) {
    if (client != null) client.close();
  }
}
