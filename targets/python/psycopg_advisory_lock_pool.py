"""BAD for V314 (a session advisory lock through a pool): psycopg 3.1's psycopg_pool.ConnectionPool
hands each call whatever idle connection it has, so pg_advisory_unlock may run on another server
session than pg_try_advisory_lock; it then misses and the lock leaks with the session it was taken on."""
import psycopg_pool

name = "psycopg_pool ConnectionPool: lock and unlock each through the pool"
description = "psycopg 3.1 / psycopg_pool 3.1 ConnectionPool: pg_try_advisory_lock and pg_advisory_unlock each on a connection from the pool"

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
    with pool.connection() as connection:
        return {} if connection.execute(TRY_LOCK, (env.key,)).fetchone()[0] else None


def release(env, lease):
    with pool.connection() as connection:
        if not connection.execute(UNLOCK, (env.key,)).fetchone()[0]:
            env.log("pg_advisory_unlock returned false: this session did not hold the lock")


def query(env, sql):
    with pool.connection() as connection:
        connection.execute(sql)


def close(env):
    pool.close()
