/**
 * `init --lang java|go`: writes a whole Java or Go target beside the user's code — the targets
 * docs/helpers-java-go.md shows (wired in init.ts). Java: a session advisory lock with pgjdbc
 * (Debian's /usr/share/java/postgresql.jar, named by the file's //CLASSPATH line) on one
 * connection held for the lease (V314 PASS). Go: redigo SET NX PX with a
 * compare-and-delete release (V310 PASS). Each is a starting point: replace the lock calls with
 * the project's own helper's.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { UsageError } from '../../core/errors.ts';

export const JAVA_TARGET = `//CLASSPATH /usr/share/java/postgresql.jar
/*
 * A lock-oracles target in Java (sdk/java/LockOracles.java): a session advisory lock on one
 * Postgres connection held for the lease. Replace the SQL with your helper's calls.
 *   npm run oracle -- V314 --store postgres --target LockTarget.java
 */
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;

public class LockTarget {
  public static final String DESCRIPTION = "pgjdbc: pg_try_advisory_lock on a connection held for the lease";

  public Object acquire(LockOracles.Env env) throws Exception {
    Connection connection = connect(env);
    if (ask(connection, "SELECT pg_try_advisory_lock(hashtext(?))", env.key)) return Map.of("connection", connection);
    connection.close();
    return null; // denied: another holder has it
  }

  public void release(LockOracles.Env env, Map<String, Object> lease) throws Exception {
    try (Connection connection = (Connection) lease.get("connection")) {
      ask(connection, "SELECT pg_advisory_unlock(hashtext(?))", env.key);
    }
  }

  public void query(LockOracles.Env env, String sql) throws Exception {
    try (Connection connection = connect(env)) {
      connection.createStatement().execute(sql);
    }
  }

  /** The harness's postgres:// URL as a JDBC connection (its application_name names the holder). */
  private static Connection connect(LockOracles.Env env) throws Exception {
    URI url = URI.create(env.url);
    // pgjdbc spells the harness's application_name (it names the holder) ApplicationName.
    String query = url.getQuery() == null ? "" : "?" + url.getQuery().replace("application_name=", "ApplicationName=");
    return DriverManager.getConnection(
        "jdbc:postgresql://" + url.getHost() + ":" + url.getPort() + url.getPath() + query, url.getUserInfo(), null);
  }

  private static boolean ask(Connection connection, String sql, String key) throws Exception {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, key);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() && rows.getBoolean(1);
      }
    }
  }
}
`;

export const GO_TARGET = `// A lock-oracles target in Go (sdk/go/lockoracles.go): redigo's SET NX PX with a random token,
// released and extended only by scripts that compare the token. Replace them with your helper's calls.
// Run it: npm run oracle -- V310 --store redis --target lock_target.go
package main

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gomodule/redigo/redis"
	"lockoracles"
)

type lease struct{ Token string }

var (
	release = redis.NewScript(1, \`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end\`)
	extend  = redis.NewScript(1, \`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end\`)
)

type lockTarget struct{ conn redis.Conn }

func (t *lockTarget) Connect(env *lockoracles.Env) (err error) {
	t.conn, err = redis.DialURL(env.URL)
	return err
}

func (t *lockTarget) Acquire(env *lockoracles.Env) (*lease, error) {
	token := make([]byte, 16)
	_, _ = rand.Read(token)
	l := &lease{Token: hex.EncodeToString(token)}
	_, err := redis.String(t.conn.Do("SET", env.Key, l.Token, "NX", "PX", env.TTLMs))
	if err == redis.ErrNil {
		return nil, nil // denied: another holder has it
	}
	return l, err
}

func (t *lockTarget) Release(env *lockoracles.Env, l *lease) error {
	_, err := release.Do(t.conn, env.Key, l.Token)
	return err
}

func (t *lockTarget) Extend(env *lockoracles.Env, l *lease, ttlMs int64) (bool, error) {
	extended, err := redis.Int(extend.Do(t.conn, env.Key, l.Token, ttlMs))
	return extended == 1, err
}

func (t *lockTarget) Close(env *lockoracles.Env) error { return t.conn.Close() }

func main() { lockoracles.Run(&lockTarget{}) }
`;

/** Writes the Java or Go target to `out` (default LockTarget.java / lock_target.go); refuses to overwrite. */
export function writeJavaGoTarget(lang: 'java' | 'go', out?: string): string {
  const path = resolve(out ?? (lang === 'java' ? 'LockTarget.java' : 'lock_target.go'));
  if (lang === 'java' && basename(path) !== 'LockTarget.java') {
    throw new UsageError(`--out ${out}: a Java target's file is named after its class, LockTarget.java`);
  }
  if (existsSync(path)) throw new UsageError(`${path} already exists: pass --out <another file>, or remove it`);
  writeFileSync(path, lang === 'java' ? JAVA_TARGET : GO_TARGET);
  return path;
}
