/**
 * With no --store, a run starts the store the target's own imports show (issue 23): a Redis
 * job-queue target on V317, whose default store is Postgres, gets Redis and is judged, instead of
 * failing in its client's connect; the evidence says how the store was chosen.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseStore, storeTargetMismatch } from '../src/run/store-choice.ts';
import { UsageError } from '../src/core/errors.ts';
import { librariesImportedBy, packagesImportedBy } from '../src/run/target-imports.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const V317_STORES = ['postgres', 'redis', 'valkey'] as const;
/** V312's stores: every family with a lock a job can ignore, Redis first. */
const V312_STORES = ['redis', 'valkey', 'postgres', 'fs', 'zookeeper', 'etcd'] as const;
const IMPORTS = 'test/fixtures/targets/imports';

describe('the store a target needs', () => {
  it("reads the packages a target imports through its own files (redlock's target imports ioredis too)", async () => {
    expect([...(await packagesImportedBy('targets/redis/redlock/lock.ts'))].sort()).toEqual(['ioredis', 'redlock']);
  });

  it("reads them again when one of the target's own files changed since the record a process left behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-imports-test-'));
    try {
      const target = join(dir, 'target.ts');
      const helper = join(dir, 'client.ts');
      writeFileSync(target, "export { client } from './client.ts';\n");
      writeFileSync(helper, "export { Redis as client } from 'ioredis';\n");
      expect([...(await packagesImportedBy(target))]).toEqual(['ioredis']);
      // The record now stands for these two files: a changed helper (another mtime) is read again.
      writeFileSync(helper, "export { Pool as client } from 'pg';\n");
      utimesSync(helper, new Date(), new Date(Date.now() + 5000));
      expect([...(await packagesImportedBy(target))]).toEqual(['pg']);
      expect([...(await packagesImportedBy(target))]).toEqual(['pg']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('picks Redis for a Redis target on an oracle whose default is Postgres, saying so', async () => {
    const choice = await chooseStore('V317', V317_STORES, 'targets/clock/redis-queue-app-clock-expiry.ts');
    expect(choice.kind).toBe('redis');
    expect(choice.why).toMatch(/target's imports \(ioredis\); V317's default is postgres; --store picks another/);
  });

  it('keeps the default for a target on the default store', async () => {
    expect((await chooseStore('V317', V317_STORES, 'targets/clock/lease-app-clock-expiry.ts')).kind).toBe('postgres');
  });

  it('falls back to the default, naming the flag, when the target imports no known client', async () => {
    const choice = await chooseStore('V317', V317_STORES, 'test/fixtures/targets/acquire-returns-42.ts');
    expect(choice.kind).toBe('postgres');
    expect(choice.why).toMatch(
      /imports no node client the harness knows.*--store redis or --store valkey picks another/,
    );
  });

  it.each([
    ['Java on Curator', 'targets/java/curator/CuratorMutexJob.java', 'zookeeper', /org\.apache\.curator/],
    ['Java on pgjdbc', 'targets/java/AdvisoryLockPoolQuery.java', 'postgres', /org\.postgresql/],
    ['Java on jetcd', `${IMPORTS}/JetcdLock.java`, 'etcd', /io\.etcd\.jetcd/],
    ['Go on etcd concurrency.Mutex', `${IMPORTS}/etcd_mutex.go`, 'etcd', /go\.etcd\.io\/etcd/],
    ['Python on kazoo', 'targets/python/kazoo_lock_job.py', 'zookeeper', /kazoo/],
    ['Python on psycopg', 'targets/python/psycopg_advisory_lock_pool.py', 'postgres', /psycopg/],
    ['Python on kazoo through a helper module beside it', `${IMPORTS}/kazoo_helper_user.py`, 'zookeeper', /kazoo/],
  ])('picks the store a %s target imports', async (_name, target, kind, by) => {
    const choice = await chooseStore('V312', V312_STORES, target);
    expect(choice.kind).toBe(kind);
    expect(choice.why).toMatch(by);
  });

  it('picks Redis for a Go redigo target on an oracle whose default is Postgres', async () => {
    const choice = await chooseStore('V317', V317_STORES, 'targets/go/redigo_release_bare_del.go');
    expect(choice.kind).toBe('redis');
    expect(choice.why).toMatch(/github\.com\/gomodule\/redigo.*V317's default is postgres/);
  });

  it("reads a Go file's import block, a Java file's and its siblings' imports", async () => {
    expect([...(await librariesImportedBy(`${IMPORTS}/etcd_mutex.go`, 'go'))].sort()).toEqual([
      'context',
      'go.etcd.io/etcd/client/v3',
      'go.etcd.io/etcd/client/v3/concurrency',
      'lockoracles',
    ]);
    expect(await librariesImportedBy(`${IMPORTS}/JetcdLock.java`, 'java')).toEqual(
      new Set(['io.etcd.jetcd.ByteSequence', 'io.etcd.jetcd.Client']),
    );
  });

  it('falls back to the default for a Python target that imports only the standard library, naming its language', async () => {
    const choice = await chooseStore('V317', V317_STORES, 'targets/python/lock_file_o_excl.py');
    expect(choice.kind).toBe('postgres');
    expect(choice.why).toMatch(/imports no python client the harness knows \(.*kazoo.*\)/);
  });

  it('a real run of the Curator mutex job on V313 without --store is judged on ZooKeeper', async () => {
    const record = await runOracle({ oracle: 'V313', target: 'targets/java/curator/CuratorMutexJob.java' });
    expect(record.store?.kind).toBe('zookeeper');
    expect(record.store?.chosenBy).toMatch(/org\.apache\.curator/);
    expect(record.verdict, record.explanation).toBe('FAIL');
  });

  it('a real run of the Redis queue target on V317 without --store is judged on Redis', async () => {
    const record = await runOracle({ oracle: 'V317', target: 'targets/clock/redis-queue-app-clock-expiry.ts' });
    expect(record.store?.kind).toBe('redis');
    expect(record.store?.chosenBy).toMatch(/target's imports/);
    expect(record.verdict, record.explanation).toBe('FAIL');
  });

  it('refuses a --store the target has no client for, before any process starts, naming the store its imports fit', async () => {
    const run = runOracle({
      oracle: 'V310',
      store: 'redis',
      target: 'targets/postgres/advisory-lock-checked-out-client.ts',
    });
    // A UsageError comes from the resolve stage, before any store or holder starts (the run used to wait out its acquire's 30 s).
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(
      /--store redis: the target imports pg, a client of postgres.*run it with --store postgres/,
    );
  });

  it("names the oracle's stores when none of them is one the target's clients talk to", async () => {
    const why = await storeTargetMismatch('V316', ['redis', 'valkey'], 'redis', 'targets/postgres/lease-row-lock.ts');
    expect(why).toMatch(
      /a client of postgres.*V316 runs on redis, valkey, none of them a store this target's clients talk to/,
    );
  });

  it.each([
    ['the family it imports', 'redis', 'targets/redis/ioredis/release-bare-del.ts'],
    ['a directory store, whatever else it imports', 'fs', 'targets/redis/ioredis/release-bare-del.ts'],
    ['a target that imports no client the harness knows', 'postgres', 'test/fixtures/targets/acquire-returns-42.ts'],
    [
      'a target that reaches the family through another package (redlock, with ioredis)',
      'redis',
      'targets/redis/redlock/lock.ts',
    ],
  ])('never refuses %s', async (_name, kind, target) => {
    expect(await storeTargetMismatch('V310', ['redis', 'fs', 'postgres'], kind as 'redis', target)).toBeUndefined();
  });
});
