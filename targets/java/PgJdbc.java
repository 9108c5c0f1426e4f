//CLASSPATH /usr/share/java/postgresql.jar
/*
 * What the Java JDBC references share: the postgres:// URL the harness hands over as a JDBC URL, a
 * pool of pgjdbc's own (PGPoolingDataSource, Debian's libpostgresql-jdbc-java 42.5) of
 * `poolMax` connections (V314 asks for 2), and the advisory-lock SQL keyed by hashtext(key).
 */
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.postgresql.ds.PGPoolingDataSource;

final class PgJdbc {
  static final String TRY_LOCK = "SELECT pg_try_advisory_lock(hashtext(?))";
  static final String UNLOCK = "SELECT pg_advisory_unlock(hashtext(?))";

  private PgJdbc() {}

  /** A pool of `poolMax` (default 2) connections to the harness's database. */
  @SuppressWarnings("deprecation")
  static PGPoolingDataSource pool(LockOracles.Env env) {
    URI url = URI.create(env.url);
    PGPoolingDataSource pool = new PGPoolingDataSource();
    pool.setServerNames(new String[] {url.getHost()});
    pool.setPortNumbers(new int[] {url.getPort()});
    pool.setDatabaseName(url.getPath().substring(1));
    // The harness's URL names the holder in its application_name: the sessions carry it too.
    for (String pair : url.getQuery() == null ? new String[0] : url.getQuery().split("&")) {
      String[] nameValue = pair.split("=", 2);
      if (nameValue[0].equals("application_name") && nameValue.length == 2) pool.setApplicationName(URLDecoder.decode(nameValue[1], StandardCharsets.UTF_8));
    }
    String[] userInfo = url.getUserInfo() == null ? new String[] {System.getProperty("user.name")} : url.getUserInfo().split(":", 2);
    pool.setUser(userInfo[0]);
    if (userInfo.length > 1) pool.setPassword(userInfo[1]);
    pool.setMaxConnections(((Number) env.param("poolMax", 2L)).intValue());
    return pool;
  }

  /** Runs a one-boolean-column query with the lock's key on a connection from `pool`, given back at once. */
  static boolean askPool(DataSource pool, String sql, String key) throws SQLException {
    try (Connection connection = pool.getConnection()) {
      return ask(connection, sql, key);
    }
  }

  /** Runs a one-boolean-column query with the lock's key on `connection`. */
  static boolean ask(Connection connection, String sql, String key) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, key);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() && rows.getBoolean(1);
      }
    }
  }
}
