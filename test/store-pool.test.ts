/**
 * A batch's store pool (src/run/store-pool.ts) with real Redis servers: a server goes back to the pool
 * only reset and verified (no key, script, function or client of the run before left), one whose run
 * changed it (its config, a pause through the store's capabilities, a run ended at its deadline) is
 * stopped and the next run gets a new one, a run that asks its store for more than its kind (a clock
 * offset) gets a server of its own, and closing the pool stops what it kept. And with real runs: a
 * target that leaves its lock taken forever, a key in another database and a cached script does not
 * change the verdict of the run after it on the same server.
 */
import { Redis } from 'ioredis';
import { afterEach, expect, test } from 'vitest';
import { StorePool, type BorrowedStore } from '../src/run/store-pool.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { connectionRefused } from './store-pool-probe.ts';

const pools: StorePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function newPool(): StorePool {
  const pool = new StorePool();
  pools.push(pool);
  return pool;
}

function client(borrowed: BorrowedStore, db = 0): Redis {
  const redis = new Redis(borrowed.store.url, { db, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  return redis;
}

test('a server goes back reset: no key in any database, no script or function, no client of the run before left', async () => {
  const pool = newPool();
  const first = await pool.borrow({ kind: 'redis' }, undefined);
  expect(first.reuse.reused).toBe(false);
  const dirty = client(first);
  await dirty.set('left-behind', 'x');
  await client(first, 5).set('in-db-5', 'y');
  await dirty.script('LOAD', 'return 1');
  await dirty.call(
    'FUNCTION',
    'LOAD',
    "#!lua name=leftlib\nredis.register_function('leftfn', function() return 1 end)",
  );
  // A client blocked on a list, and one only holding its connection, both still there when the run ends.
  const blocked = client(first);
  const blpop = blocked.blpop('never-pushed', 0).then(
    () => 'answered',
    () => 'closed',
  );
  const holding = client(first);
  await holding.ping();
  await first.giveBack('finished');

  const second = await pool.borrow({ kind: 'redis' }, undefined);
  expect(second.store.url, 'the same server, reused').toBe(first.store.url);
  expect(second.reuse).toMatchObject({ reused: true });
  expect(second.reuse.why).toMatch(/served 1 earlier run/);
  const look = client(second);
  expect(await look.info('keyspace')).not.toMatch(/^db\d+:/m);
  expect(await look.script('EXISTS', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db')).toEqual([0]);
  expect(await look.call('FUNCTION', 'LIST')).toEqual([]);
  const clients = String(await look.call('CLIENT', 'LIST'))
    .trim()
    .split('\n');
  expect(clients, 'only this connection: the run before had four').toHaveLength(1);
  expect(await blpop, "the blocked client's connection was closed by the reset").toBe('closed');
  look.disconnect();
  for (const redis of [dirty, blocked, holding]) redis.disconnect();
  await second.giveBack('finished');
  expect(pool.discarded()).toEqual([]);
});

test('a server whose run changed its config, paused it or ended at its deadline is stopped; the next run gets a new one', async () => {
  const pool = newPool();
  const configured = await pool.borrow({ kind: 'redis' }, undefined);
  const redis = client(configured);
  await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
  redis.disconnect();
  await configured.giveBack('finished');
  expect(pool.discarded().map((d) => d.why)).toEqual([expect.stringMatching(/configuration .* changed/)]);
  expect(await connectionRefused(configured.store.port), 'the changed server was stopped').toBe(true);

  const paused = await pool.borrow({ kind: 'redis' }, undefined);
  expect(paused.store.url).not.toBe(configured.store.url);
  expect(paused.reuse.reused).toBe(false);
  await paused.store.capabilities.pause!();
  await paused.store.capabilities.resume!();
  await paused.giveBack('finished');

  const late = await pool.borrow({ kind: 'redis' }, undefined);
  expect(late.store.url).not.toBe(paused.store.url);
  await late.giveBack('deadline');
  expect(pool.discarded().map((d) => d.why)).toEqual([
    expect.stringMatching(/configuration/),
    'the run paused the server (SIGSTOP)',
    'its run ended at its deadline',
  ]);
  const next = await pool.borrow({ kind: 'redis' }, undefined);
  expect(next.reuse.reused, 'nothing was given back clean, so nothing is reused').toBe(false);
  await next.giveBack('finished');
});

test('a run that asks for its server clock gets a server of its own; closing the pool stops the servers it kept', async () => {
  const pool = newPool();
  const clocked = await pool.borrow({ kind: 'redis', clockOffsetMs: 0 }, undefined);
  expect(clocked.reuse).toEqual({
    reused: false,
    why: "the run steps the server's clock, so it gets a server of its own",
  });
  await clocked.giveBack('finished');
  expect(await connectionRefused(clocked.store.port)).toBe(true);

  const kept = await pool.borrow({ kind: 'redis' }, undefined);
  await kept.giveBack('finished');
  expect(await connectionRefused(kept.store.port), 'kept for the next run').toBe(false);
  await pool.close();
  expect(await connectionRefused(kept.store.port), 'stopped with the pool').toBe(true);
});

test('real runs: a target that left its lock taken forever, a key and a script does not change the next run on that server', async () => {
  const pool = newPool();
  const run = (target: string) =>
    runOracle({ oracle: 'V310', target, params: { ttl: 300 }, store: 'redis', storePool: pool });
  const leaky = await run('test/fixtures/targets/leaves-state-behind.ts');
  expect(leaky.store?.reuse?.reused).toBe(false);
  const after = await run('targets/redis/ioredis/lock-correct.ts');
  expect(after.store?.url, 'played on the server the leaky run used').toBe(leaky.store?.url);
  expect(after.store?.reuse?.reused).toBe(true);
  const alone = await runOracle({
    oracle: 'V310',
    target: 'targets/redis/ioredis/lock-correct.ts',
    params: { ttl: 300 },
  });
  expect(alone.store?.reuse?.reused).toBe(false);
  expect(after.verdict, after.explanation).toBe(alone.verdict);
  expect(after.verdict).toBe('PASS');
  // Every count but the times (a lease's ms left at a read differs from run to run).
  const untimed = (counts: Record<string, number>) => Object.entries(counts).filter(([name]) => !name.endsWith('Ms'));
  expect(untimed(after.counts)).toEqual(untimed(alone.counts));
});
