//CLASSPATH /usr/share/java/postgresql.jar
/*
 * GOOD for V314's pool scenario: the lock is taken on a connection checked out of pgjdbc's pool
 * and kept for the whole lease; the unlock runs on that same connection, which goes back to the
 * pool only after it, so other pool traffic never runs on the lock's session.
 */
import java.sql.Connection;
import java.util.Map;
import org.postgresql.ds.PGPoolingDataSource;

public class AdvisoryLockDedicatedConnection {
  public static final String DESCRIPTION = "pgjdbc 42.5 PGPoolingDataSource: lock and unlock on one checked-out connection held for the lease";

  private PGPoolingDataSource pool;

  public void connect(LockOracles.Env env) {
    pool = PgJdbc.pool(env);
  }

  public Object acquire(LockOracles.Env env) throws Exception {
    Connection connection = pool.getConnection();
    try {
      if (PgJdbc.ask(connection, PgJdbc.TRY_LOCK, env.key)) return Map.of("connection", connection);
    } catch (Exception e) {
      connection.close();
      throw e;
    }
    connection.close();
    return null;
  }

  public void release(LockOracles.Env env, Map<String, Object> lease) throws Exception {
    try (Connection connection = (Connection) lease.get("connection")) {
      if (!PgJdbc.ask(connection, PgJdbc.UNLOCK, env.key)) env.log("pg_advisory_unlock returned false");
    }
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
