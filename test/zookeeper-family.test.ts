/**
 * The ZooKeeper family on a real server (Debian's zookeeper 3.8, a real JVM): the recipe starts,
 * answers and leaves nothing; the harness's own view reads a lock node's queue, its sessions and
 * their ends; the jute framer names real client traffic and a hold keeps a delete at the wire; and
 * every oracle on ZooKeeper ships a bad and a good reference there (their runs are the reference
 * matrix's, test/reference-targets.test.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createClient, CreateMode, type Client } from 'node-zookeeper-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import V310 from '../oracles/V310/index.ts';
import V311 from '../oracles/V311/index.ts';
import V312 from '../oracles/V312/index.ts';
import V313 from '../oracles/V313/index.ts';
import V315 from '../oracles/V315/index.ts';
import V317 from '../oracles/V317/index.ts';
import { zookeeperFamily } from '../src/families/zookeeper/index.ts';
import { fourLetterWord, liveSessions } from '../src/families/zookeeper/four-letter.ts';
import { SESSION_FLOOR_MS, TICK_MS } from '../src/families/zookeeper/zk-config.ts';
import { connectResponse, ZkRequestFramer } from '../src/wire/zk-framer.ts';
import { expireHolderSession, expireSession } from '../src/families/zookeeper/faults/expire-session.ts';
import { holdPingsUntilExpired } from '../src/families/zookeeper/faults/hold-pings.ts';
import { connect as netConnect } from 'node:net';
import { startStore } from '../src/families/start-store.ts';
import type { StartedStore } from '../src/stores/types.ts';
import { WireProxy } from '../src/wire/proxy.ts';
import type { WireCommand } from '../src/wire/command.ts';

let store: StartedStore;

/** The ZooKeeper JVM serving 127.0.0.1:`port`, found by its command line and the zoo.cfg it names. */
function serverOn(port: number): { pid: number; cfg: string } | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
    } catch {
      continue;
    }
    if (!args.includes('org.apache.zookeeper.server.ZooKeeperServerMain')) continue;
    const cfg = args.at(-1)!;
    if (existsSync(cfg) && readFileSync(cfg, 'utf8').includes(`clientPort=${port}\n`))
      return { pid: Number(entry), cfg };
  }
  return undefined;
}
const clients: Client[] = [];

/** A real client session on `url`'s server (the store, or a wire proxy in front of it). */
async function session(url: string, timeoutMs = 2000): Promise<Client> {
  const parsed = new URL(url);
  const client = createClient(`${parsed.hostname}:${parsed.port}`, { sessionTimeout: timeoutMs, retries: 0 });
  clients.push(client);
  const connected = new Promise<void>((resolve) => client.once('connected', () => resolve()));
  client.connect();
  await connected;
  return client;
}

const call = <T>(run: (done: (error: unknown, value?: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));

const mkdirp = (client: Client, path: string) => call<string>((done) => client.mkdirp(path, done));
const create = (client: Client, path: string, mode: number, data = '') =>
  call<string>((done) => client.create(path, Buffer.from(data), mode, done));
const remove = (client: Client, path: string) => call<void>((done) => client.remove(path, -1, (e) => done(e)));

beforeAll(async () => {
  store = await startStore({ kind: 'zookeeper' }, 'local');
}, 90_000);

afterAll(async () => {
  for (const client of clients.splice(0)) client.close();
  await store?.stop();
});

describe('zookeeper store', () => {
  it('answers on loopback with a short tick, reports its version, and refuses a TTL under its session floor', async () => {
    expect(store.url).toBe(`zookeeper://127.0.0.1:${store.port}`);
    expect(store.version).toMatch(/^ZooKeeper 3\.\d+\.\d+$/);
    const conf = await fourLetterWord(store.port, 'srvr');
    expect(conf).toMatch(/Mode: standalone/);
    const client = await session(store.url, 50);
    // Asked for 50 ms, the server grants its floor: 2 × tickTime.
    expect(client.getSessionTimeout()).toBe(SESSION_FLOOR_MS);
    expect(SESSION_FLOOR_MS).toBe(2 * TICK_MS);
    expect(zookeeperFamily.leaseFloor?.ms).toBe(SESSION_FLOOR_MS);
  });

  it('removes its run dir (data dir and zoo.cfg) on stop, and its JVM is gone', async () => {
    const other = await startStore({ kind: 'zookeeper' }, 'local');
    const jvm = serverOn(other.port);
    expect(jvm).toBeDefined();
    const runDir = dirname(jvm!.cfg);
    expect(readdirSync(runDir)).toEqual(expect.arrayContaining(['zoo.cfg', 'data']));
    await other.stop();
    expect(existsSync(runDir)).toBe(false);
    expect(existsSync(`/proc/${jvm!.pid}`)).toBe(false);
  }, 90_000);
});

describe('zookeeper view', () => {
  it("reads the recipe's queue: the lowest sequence holds, each child's czxid, owner and live session, and the session's end", async () => {
    const view = zookeeperFamily.view(store);
    const a = await session(store.url, 1000);
    const b = await session(store.url, 1000);
    await mkdirp(a, '/locks/view');
    const first = await create(a, '/locks/view/lock-', CreateMode.EPHEMERAL_SEQUENTIAL, 'A');
    const second = await create(b, '/locks/view/lock-', CreateMode.EPHEMERAL_SEQUENTIAL, 'B');
    const held = (await view.lock('/locks/view')) as Awaited<ReturnType<typeof view.lock>> & {
      nodes: Array<{ path: string; sequence: number; czxid: string; ephemeralOwner: string; sessionAlive: boolean }>;
    };
    expect(held.exists).toBe(true);
    expect(held.value).toBe(first);
    expect(held.nodes.map((n) => n.path)).toEqual([first, second]);
    expect(held.nodes[0]!.sequence).toBeLessThan(held.nodes[1]!.sequence);
    expect(held.nodes[0]!.ephemeralOwner).toBe(`0x${a.getSessionId().readBigUInt64BE(0).toString(16)}`);
    expect(held.nodes.every((n) => n.sessionAlive)).toBe(true);
    expect(BigInt(held.nodes[0]!.czxid)).toBeLessThan(BigInt(held.nodes[1]!.czxid));
    // The session's end: its timeout from the server's last answer, plus at most a tick.
    expect(held.pttlMs).toBeGreaterThan(0);
    expect(held.pttlMs).toBeLessThanOrEqual(1000 + TICK_MS);
    a.close();
    await expect.poll(async () => (await view.lock('/locks/view')).value, { timeout: 10_000 }).toBe(second);
    b.close();
    await expect.poll(async () => (await view.lock('/locks/view')).exists, { timeout: 10_000 }).toBe(false);
    expect((await view.lock('/locks/view')).pttlMs).toBe(-2);
    await view.close();
  });

  it('reads a persistent node as a lock with no end (-1), and a single ephemeral node by its data', async () => {
    const view = zookeeperFamily.view(store);
    const a = await session(store.url);
    await mkdirp(a, '/locks/persistent');
    const node = await create(a, '/locks/persistent/lock-', CreateMode.PERSISTENT_SEQUENTIAL, 'A');
    const read = await view.lock('/locks/persistent');
    expect(read).toMatchObject({ exists: true, value: node, pttlMs: -1 });
    await remove(a, node);
    await create(a, '/locks/single', CreateMode.EPHEMERAL, 'token-A');
    const single = await view.lock('/locks/single');
    expect(single).toMatchObject({ exists: true, value: 'token-A' });
    expect(single.pttlMs).toBeGreaterThan(0);
    expect(zookeeperFamily.unreadable('lock-oracles:V310')).toMatch(/absolute path/);
    await view.close();
  });

  it("reads the server's wall clock by the mtime it stamps on the harness's probe node", async () => {
    // A local server runs on this machine's clock: the probe's mtime, carried on by half the
    // write's round trip, must land on it, well inside V317's ±500 ms precondition.
    const view = zookeeperFamily.view(store);
    const serverMs = await view.clockMs!();
    const offset = serverMs - Date.now();
    expect(Math.abs(offset), `the read gave ${offset.toFixed(1)} ms off this machine's clock`).toBeLessThan(250);
    const again = await view.clockMs!();
    expect(again, 'a second read writes the probe again: a later mtime').toBeGreaterThan(serverMs);
    await view.close();
  });
});

describe('zookeeper wire', () => {
  it('names real client traffic by type and path, and holds a delete at the proxy until released', async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    const seen: WireCommand[] = [];
    proxy.on((event) => void (event.type === 'command' && seen.push(event.command)));
    try {
      const a = await session(proxy.url, 600);
      await mkdirp(a, '/locks/wire');
      const node = await create(a, '/locks/wire/lock-', CreateMode.EPHEMERAL_SEQUENTIAL);
      await call<string[]>((done) => a.getChildren('/locks/wire', done));
      // Pings come every third of the session timeout once the client is idle.
      await expect.poll(() => seen.some((c) => c.name === 'ping'), { timeout: 5000 }).toBe(true);
      const hold = proxy.hold(zookeeperFamily.commands.delete!('/locks/wire'));
      const removing = remove(a, node);
      const held = await hold.reached;
      expect(held.command.text).toBe(`delete ${node} version -1`);
      const view = zookeeperFamily.view(store);
      expect((await view.lock('/locks/wire')).value).toBe(node);
      hold.release();
      await removing;
      expect((await view.lock('/locks/wire')).exists).toBe(false);
      await view.close();
      a.close();
      await expect.poll(() => seen.some((c) => c.name === 'closeSession'), { timeout: 5000 }).toBe(true);
      expect(seen[0]).toMatchObject({ name: 'connect', text: 'connect new session, timeout 600 ms' });
      expect(seen.find((c) => c.name === 'create' && c.args[0] === '/locks/wire/lock-')?.text).toBe(
        'create /locks/wire/lock- ephemeral-sequential',
      );
      expect(seen.some((c) => /^getChildren2?$/.test(c.name) && c.args[0] === '/locks/wire')).toBe(true);
      expect(
        zookeeperFamily.commands.lockLocations!(seen.find((c) => c.text.includes('ephemeral-sequential'))!),
      ).toEqual(['/locks/wire']);
    } finally {
      await proxy.close();
    }
  });

  it('frames a request split at every offset the same as whole', () => {
    const record = (xid: number, type: number, body: Buffer) => {
      const header = Buffer.alloc(8);
      header.writeInt32BE(xid, 0);
      header.writeInt32BE(type, 4);
      const packet = Buffer.concat([header, body]);
      const length = Buffer.alloc(4);
      length.writeInt32BE(packet.length);
      return Buffer.concat([length, packet]);
    };
    const path = Buffer.from('/locks/x/lock-0000000001');
    const pathField = Buffer.concat([Buffer.from([0, 0, 0, path.length]), path]);
    const version = Buffer.from([0xff, 0xff, 0xff, 0xff]);
    const connect = Buffer.alloc(4 + 4 + 8 + 4 + 8 + 4 + 16 + 1);
    connect.writeInt32BE(connect.length - 4, 0);
    connect.writeInt32BE(600, 16);
    connect.writeInt32BE(16, 32);
    const stream = Buffer.concat([
      connect,
      record(1, 2, Buffer.concat([pathField, version])),
      record(-2, 11, Buffer.alloc(0)),
    ]);
    const texts = (chunks: Buffer[]) => {
      const framer = new ZkRequestFramer();
      return chunks.flatMap((chunk) => framer.push(chunk)).map((frame) => frame.command?.text);
    };
    const whole = texts([stream]);
    expect(whole).toEqual([
      'connect new session, timeout 600 ms',
      'delete /locks/x/lock-0000000001 version -1',
      'ping',
    ]);
    for (let cut = 1; cut < stream.length; cut++)
      expect(texts([stream.subarray(0, cut), stream.subarray(cut)])).toEqual(whole);
  });
});

describe('zookeeper faults', () => {
  it('expire-session says so when the holder has no session yet (nothing reached its proxy)', async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    try {
      await expect(expireHolderSession(proxy, store.port)).rejects.toThrow(/holder A has no ZooKeeper session yet/);
    } finally {
      await proxy.close();
    }
  });

  it("expire-session: a second handle with the session's id and password closes it; its ephemeral node goes while the client runs on", async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    try {
      const view = zookeeperFamily.view(store);
      const a = await session(proxy.url, 5000);
      const expired = new Promise<void>((resolve) => a.once('expired', () => resolve()));
      await mkdirp(a, '/locks/expire');
      const node = await create(a, '/locks/expire/lock-', CreateMode.EPHEMERAL_SEQUENTIAL);
      expect((await view.lock('/locks/expire')).value).toBe(node);
      const id = a.getSessionId().readBigUInt64BE(0);
      // The proxy read the session off A's connection: the client's own id and password, not handed over.
      expect(proxy.latestSession()).toMatchObject({ kind: 'session', id, timeoutMs: 5000 });
      expect(proxy.latestSession()!.password.equals(a.getSessionPassword())).toBe(true);
      const said = await expireHolderSession(proxy, store.port);
      expect(said).toBe(`attached to session 0x${id.toString(16)} with its password and closed it`);
      // Gone at once, long before the 5 s timeout: the server ended the session.
      expect((await view.lock('/locks/expire')).exists).toBe(false);
      expect((await liveSessions(store.port)).has(`0x${id.toString(16)}`)).toBe(false);
      await expired;
      // An ended session cannot be attached to again.
      await expect(expireSession(store.port, { id, password: a.getSessionPassword() })).rejects.toThrow(
        /already ended/,
      );
      await view.close();
    } finally {
      await proxy.close();
    }
  });

  it("the server's ConnectResponse names the session a client gets (what the fault attaches with)", async () => {
    const request = Buffer.alloc(4 + 4 + 8 + 4 + 8 + 4 + 16 + 1);
    request.writeInt32BE(request.length - 4, 0);
    request.writeInt32BE(1000, 16);
    request.writeInt32BE(16, 32);
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const socket = netConnect({ host: '127.0.0.1', port: store.port }, () => socket.write(request));
      socket.once('data', (chunk: Buffer) => {
        socket.destroy();
        resolve(chunk);
      });
      socket.on('error', reject);
    });
    const granted = connectResponse(reply);
    expect(granted?.timeoutMs).toBe(1000);
    expect(granted?.password).toHaveLength(16);
    expect(granted?.id).toBeGreaterThan(0n);
  });

  it("hold-pings: A's ping held at its proxy until the server expires its session, A's process running on", async () => {
    const proxy = await WireProxy.start({ holder: 'A', storeUrl: store.url });
    try {
      const view = zookeeperFamily.view(store);
      const a = await session(proxy.url, 600);
      await mkdirp(a, '/locks/pings');
      const node = await create(a, '/locks/pings/lock-', CreateMode.EPHEMERAL_SEQUENTIAL);
      expect((await view.lock('/locks/pings')).value).toBe(node);
      const id = `0x${a.getSessionId().readBigUInt64BE(0).toString(16)}`;
      const landed = await holdPingsUntilExpired(proxy, store.port, id, 10_000);
      expect(landed.expiredAtMs).toBeGreaterThan(landed.heldAtMs);
      expect((await view.lock('/locks/pings')).exists).toBe(false);
      expect(proxy.records().map((r) => r.what)).toEqual([expect.stringMatching(/^hold ping/)]);
      await view.close();
    } finally {
      await proxy.close();
    }
  });
});

const zookeeperReferences = [V310, V311, V312, V313, V315, V317].flatMap((oracle) =>
  oracle.references
    .filter((reference) => reference.store === 'zookeeper')
    .map((reference) => ({ oracle: oracle.id, ...reference })),
);

// Each ZooKeeper reference runs for real, with the evidence checks, in the reference matrix
// (test/reference-targets.test.ts); here only that each oracle on ZooKeeper has both kinds.
describe('zookeeper references', () => {
  it('every oracle that lists zookeeper ships a bad and a good reference there', () => {
    for (const oracle of [V310, V311, V312, V313, V315, V317]) {
      expect(oracle.stores).toContain('zookeeper');
      const verdicts = zookeeperReferences.filter((r) => r.oracle === oracle.id).map((r) => r.expect);
      expect(verdicts).toEqual(expect.arrayContaining(['FAIL', 'PASS']));
    }
  });
});
