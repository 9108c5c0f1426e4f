"""GOOD for V314's pool scenario: the lock is taken on a connection checked out of psycopg_pool's
ConnectionPool and kept for the whole lease; the unlock runs on that same connection, which goes
back to the pool only after it, so other pool traffic never runs on the lock's session."""
import psycopg_pool

name = "psycopg_pool ConnectionPool: lock and unlock on one checked-out connection"
description = "psycopg 3.1 / psycopg_pool 3.1 ConnectionPool: pool.getconn() once, pg_try_advisory_lock and pg_advisory_unlock on it, pool.putconn() after the unlock"

TRY_LOCK = "SELECT pg_try_advisory_lock(hashtext(%s))"
UNLOCK = "SELECT pg_advisory_unlock(hashtext(%s))"


def connect(env):
    global pool
    # The harness's URL names the holder in its application_name: libpq passes it on to every session.
    pool = psycopg_pool.ConnectionPool(
        env.url, min_size=1, max_size=int(env.params.get("poolMax", 2)), kwargs={"autocommit": True}
    )
    pool.wait()


def acquire(env):
    connection = pool.getconn()
    try:
        if connection.execute(TRY_LOCK, (env.key,)).fetchone()[0]:
            return {"connection": connection}
    except BaseException:
        pool.putconn(connection)
        raise
    pool.putconn(connection)
    return None


def release(env, lease):
    connection = lease["connection"]
    try:
        if not connection.execute(UNLOCK, (env.key,)).fetchone()[0]:
            env.log("pg_advisory_unlock returned false")
    finally:
        pool.putconn(connection)


def query(env, sql):
    with pool.connection() as connection:
        connection.execute(sql)


def close(env):
    pool.close()
