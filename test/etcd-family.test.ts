/**
 * The etcd family on a real etcd member (Debian's etcd 3.4.23): the recipe starts it on loopback
 * and leaves nothing after stop; the harness's own view reads a key, a prefix's holder and waiters,
 * leases and their TTLs; the gRPC framer names each RPC of a real etcd3 client's traffic, and a held
 * keepalive stops only its own stream; the lease floor is a usage error; and every oracle on etcd
 * has a bad and a good reference (their runs are the reference matrix's, test/reference-targets.test.ts).
 */
import { Etcd3 } from 'etcd3';
import { execa } from 'execa';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import V310 from '../oracles/V310/index.ts';
import V311 from '../oracles/V311/index.ts';
import V312 from '../oracles/V312/index.ts';
import V313 from '../oracles/V313/index.ts';
import V315 from '../oracles/V315/index.ts';
import V317 from '../oracles/V317/index.ts';
import { holdKeepalivesUntilLeaseEnds } from '../src/families/etcd/faults/keepalives-held.ts';
import { revokeHolderLease } from '../src/families/etcd/faults/lease-revoked.ts';
import { etcdFamily } from '../src/families/etcd/index.ts';
import { etcdTtlProblem } from '../src/families/etcd/lease-floor.ts';
import { startStore } from '../src/families/start-store.ts';
import { referenceMatrix } from '../src/run/reference-matrix.ts';
import type { StartedStore } from '../src/stores/types.ts';
import type { WireCommand } from '../src/wire/command.ts';
import { WireProxy } from '../src/wire/proxy.ts';

let store: StartedStore;
let client: Etcd3;

beforeAll(async () => {
  store = await startStore({ kind: 'etcd' }, 'local');
  client = new Etcd3({ hosts: store.url });
});
afterAll(async () => {
  client?.close();
  await store?.stop();
});

describe('the etcd recipe', () => {
  it('starts a loopback member, says its version, and leaves no process or data dir after stop', async () => {
    const own = await startStore({ kind: 'etcd' }, 'local');
    expect(own.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(own.version).toBe('3.4.23');
    const { pid, dataDir } = await findMember(own.port);
    expect(pid, 'the member runs').toBeGreaterThan(0);
    expect(existsSync(dataDir), dataDir).toBe(true);
    await own.stop();
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(existsSync(dataDir), 'the data dir went with the run dir').toBe(false);
  });

  it('refuses a TTL under the lease floor or in part seconds, naming the --ttl to use', () => {
    expect(etcdTtlProblem(500)).toMatch(/under etcd's lease floor.*--ttl 1000/);
    expect(etcdTtlProblem(1500)).toMatch(/no whole number of seconds.*--ttl 2000/);
    expect(etcdTtlProblem(2000)).toBeUndefined();
  });
});

describe("the harness's view of an etcd lock", () => {
  it('reads a lease-attached key: value, revisions, lease and its TTL by the server', async () => {
    const lease = client.lease(5, { autoKeepAlive: false });
    const id = await lease.grant();
    await lease.put('view.leased').value('token-A');
    const view = etcdFamily.view(store);
    const state = await view.lock('view.leased');
    expect(state).toMatchObject({ exists: true, value: 'token-A', lease: id, grantedTtlS: 5 });
    expect(state.pttlMs).toBeGreaterThanOrEqual(3000);
    expect(state.pttlMs).toBeLessThanOrEqual(5000);
    expect((state as { createRevision?: number }).createRevision).toBeGreaterThan(0);
    await lease.revoke();
    expect(await view.lock('view.leased')).toMatchObject({ exists: false, pttlMs: -2 });
  });

  it('reads a key without a lease as never expiring, and a prefix by its oldest key with the others as waiters', async () => {
    await client.put('view.bare').value('x');
    const view = etcdFamily.view(store);
    expect(await view.lock('view.bare')).toMatchObject({ exists: true, pttlMs: -1, lease: '0' });
    await client.put('view.queue/b').value('second');
    await client.put('view.queue/a').value('third');
    await client.put('view.queue/b').value('second, rewritten');
    const state = await view.lock('view.queue/');
    // Created first, b holds although a sorts first by name; rewriting b keeps its create revision.
    expect(state).toMatchObject({ exists: true, holderKey: 'view.queue/b', value: 'second, rewritten' });
    expect((state as { waiters?: Array<{ key: string }> }).waiters?.map((w) => w.key)).toEqual(['view.queue/a']);
  });

  it("reads the member's wall clock by its gateway's Date header, to the turn of a second", async () => {
    // A local member runs on this machine's clock: the read must land on it, far inside V317's
    // ±500 ms precondition, although one Date header is a whole second wide.
    const serverMs = await etcdFamily.view(store).clockMs!();
    const offset = serverMs - Date.now();
    expect(Math.abs(offset), `the read gave ${offset.toFixed(1)} ms off this machine's clock`).toBeLessThan(250);
    expect(serverMs % 1000, 'a read is not the header itself (whole seconds)').not.toBe(0);
  });
});

describe('the gRPC framer on real etcd3 traffic', () => {
  it('names each RPC with its keys and lease, and a held keepalive stops only its own stream', async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    const seen: WireCommand[] = [];
    proxy.on((event) => event.type === 'command' && seen.push(event.command));
    const through = new Etcd3({ hosts: etcdFamily.holderUrl(proxy.url, 'A') });
    try {
      const lease = through.lease(5, { autoKeepAlive: false });
      const id = await lease.grant();
      await through.if('wire.k', 'Create', '==', 0).then(through.put('wire.k').value('t').lease(id)).commit();
      await through.if('wire.k', 'Create', '==', 1).then(through.delete().key('wire.k')).commit();
      const texts = seen.map((c) => c.text);
      expect(texts).toContain('Lease/LeaseGrant ttl 5s');
      expect(texts).toContain(`KV/Txn if wire.k then put wire.k lease ${id}`);
      expect(texts).toContain('KV/Txn if wire.k then delete wire.k');
      expect(etcdFamily.commands.lockLocations!(seen.find((c) => c.text.includes('then put'))!)).toEqual(['wire.k']);

      const hold = proxy.hold(etcdFamily.commands.renewal!('wire.k'));
      const renewal = lease.keepaliveOnce();
      await expect.poll(() => hold.record.commandsAffected, { timeout: 5000 }).toBe(1);
      // The keepalive is held; a read on the same HTTP/2 connection still gets its answer.
      expect(await through.get('wire.k').string()).toBe('t');
      hold.release();
      await renewal;
      // A reply held: the keepalive's answer kept from the client until released.
      const replyHold = proxy.holdReply(etcdFamily.commands.renewal!('wire.k'));
      const answered = lease.keepaliveOnce();
      await replyHold.reached;
      expect(await Promise.race([answered.then(() => 'answered'), sleep(300).then(() => 'held')])).toBe('held');
      replyHold.release();
      await answered;
      expect(seen.filter((c) => c.name === 'Lease/LeaseKeepAlive')).toHaveLength(2);
      await lease.revoke();
      const revoke = seen.at(-1)!;
      expect(etcdFamily.commands.delete!('wire.k').some((p) => p.command === 'Lease/LeaseRevoke')).toBe(true);
      expect(revoke).toMatchObject({ name: 'Lease/LeaseRevoke', args: [id] });
    } finally {
      through.close();
      await proxy.close();
    }
  });
});

describe("the etcd family's faults on a real member", () => {
  it("lease-revoked revokes the lease A's proxy saw granted: the lock ends at once", async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    const through = new Etcd3({ hosts: etcdFamily.holderUrl(proxy.url, 'A') });
    try {
      const lease = through.lease(30);
      await lease.put('fault.revoked').value('A');
      // Read off A's connection (the LeaseGrant's reply), not asked of A's client.
      expect(proxy.latestLease()).toMatchObject({ kind: 'lease', id: await lease.grant(), ttlS: 30 });
      const view = etcdFamily.view(store);
      const revoked = await revokeHolderLease(store.url, proxy, view, 'fault.revoked');
      expect(revoked).toMatchObject({ landed: true, key: 'fault.revoked', after: { exists: false } });
      // The other holders' leases are not A's: a key on one of them is out of reach.
      await client.lease(30).put('fault.theirs').value('B');
      const other = await revokeHolderLease(store.url, proxy, view, 'fault.theirs');
      expect((other as { why: string }).why).toMatch(/not on holder A's lease/);
    } finally {
      through.close();
      await proxy.close();
    }
  });

  it('lease-revoked does not apply to a holder granted no lease (a key put without one)', async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    const through = new Etcd3({ hosts: etcdFamily.holderUrl(proxy.url, 'A') });
    try {
      await through.put('fault.bare').value('A');
      const bare = await revokeHolderLease(store.url, proxy, etcdFamily.view(store), 'fault.bare');
      expect(bare).toMatchObject({ landed: false });
      expect((bare as { why: string }).why).toMatch(/holder A was granted no lease/);
    } finally {
      through.close();
      await proxy.close();
    }
  });

  it("keepalives-held holds a holder's keepalives until the member ends its lease, while its other calls flow", async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    const through = new Etcd3({ hosts: etcdFamily.holderUrl(proxy.url, 'A') });
    try {
      const lock = through.lock('fault.kept').ttl(1);
      await lock.acquire();
      const view = etcdFamily.view(store);
      const landing = holdKeepalivesUntilLeaseEnds(proxy, view, 'fault.kept', 8000);
      expect(await through.get('fault.other').string()).toBeNull();
      const held = await landing;
      expect(held).toMatchObject({ landed: true });
      expect((held as { keepalivesHeld: number }).keepalivesHeld).toBeGreaterThanOrEqual(1);
      expect((await view.lock('fault.kept')).exists).toBe(false);
    } finally {
      through.close();
      await proxy.close();
    }
  });
});

describe("etcd 3.4.23's own Lock RPC (Jepsen 2020; fixed in 3.5.0 by etcd PR #11408, in no 3.4.x)", () => {
  it('tells a waiter whose lease expired while it waited that it holds the lock, and then grants it to another too', async () => {
    const post = async (path: string, body: unknown) =>
      (await (await fetch(`${store.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json()) as {
        ID?: string;
        TTL?: string;
        key?: string;
      };
    const name = Buffer.from('rpc.lock').toString('base64');
    const a = await post('/v3/lock/lock', { name, lease: (await post('/v3/lease/grant', { TTL: 30 })).ID });
    // B waits behind A on a 1 s lease that nothing keeps alive (the server's Lock orphans its session).
    const waiterLease = (await post('/v3/lease/grant', { TTL: 1 })).ID!;
    const waiter = post('/v3/lock/lock', { name, lease: waiterLease });
    await expect
      .poll(async () => (await post('/v3/lease/timetolive', { ID: waiterLease })).TTL, { timeout: 5000 })
      .toBe('-1');
    await post('/v3/lock/unlock', { key: a.key });
    const told = await waiter;
    // B is told it holds rpc.lock/<its lease>, a key that is not there...
    expect(Buffer.from(told.key!, 'base64').toString()).toMatch(/^rpc\.lock\//);
    const view = etcdFamily.view(store);
    expect(await view.lock('rpc.lock/')).toMatchObject({ exists: false });
    // ...so C is granted the lock while B believes it holds it.
    const c = await post('/v3/lock/lock', { name, lease: (await post('/v3/lease/grant', { TTL: 30 })).ID });
    expect(c.key).toBeDefined();
    expect(c.key).not.toBe(told.key);
    expect((await view.lock('rpc.lock/')).exists).toBe(true);
  });
});

describe('the etcd references', () => {
  // Each one runs for real, checked by the same runner, in the reference matrix
  // (test/reference-targets.test.ts); here only that every oracle on etcd has both kinds.
  it('has a bad and a good etcd reference for each oracle', () => {
    const entries = referenceMatrix([V310, V311, V312, V313, V315, V317]).filter((entry) => entry.store === 'etcd');
    for (const id of ['V310', 'V311', 'V312', 'V313', 'V315', 'V317'])
      expect(new Set(entries.filter((e) => e.oracle.id === id).map((e) => e.reference.expect))).toEqual(
        new Set(['FAIL', 'PASS']),
      );
  });
});

/** The member listening on `port`: its pid and its --data-dir, from its command line. */
async function findMember(port: number): Promise<{ pid: number; dataDir: string }> {
  const { stdout } = await execa('pgrep', ['-af', `etcd .*--listen-client-urls=http://127.0.0.1:${port}`], {
    reject: false,
  });
  const line = stdout.trim().split('\n')[0] ?? '';
  return { pid: Number(line.split(' ')[0]), dataDir: /--data-dir=(\S+)/.exec(line)?.[1] ?? '' };
}
