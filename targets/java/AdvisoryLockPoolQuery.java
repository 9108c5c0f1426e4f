//CLASSPATH /usr/share/java/postgresql.jar
/*
 * BAD for V314 (session advisory lock through a pool): pg_try_advisory_lock and
 * pg_advisory_unlock each run on whatever connection pgjdbc's pool hands out, so the unlock may
 * run on another server session than the lock; it then misses and the lock leaks.
 */
import java.sql.Connection;
import java.util.Map;
import org.postgresql.ds.PGPoolingDataSource;

public class AdvisoryLockPoolQuery {
  public static final String DESCRIPTION = "pgjdbc 42.5 PGPoolingDataSource: lock and unlock each on a connection from the pool";

  private PGPoolingDataSource pool;

  public void connect(LockOracles.Env env) {
    pool = PgJdbc.pool(env);
  }

  public Object acquire(LockOracles.Env env) throws Exception {
    return PgJdbc.askPool(pool, PgJdbc.TRY_LOCK, env.key) ? Map.of() : null;
  }

  public void release(LockOracles.Env env, Object lease) throws Exception {
    if (!PgJdbc.askPool(pool, PgJdbc.UNLOCK, env.key)) env.log("pg_advisory_unlock returned false: this session did not hold the lock");
  }

  public void query(LockOracles.Env env, String sql) throws Exception {
    try (Connection connection = pool.getConnection()) {
      connection.createStatement().execute(sql);
    }
  }

  public void close(LockOracles.Env env) {
    if (pool != null) pool.close();
  }
}
