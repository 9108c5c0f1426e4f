/**
 * The per-holder wire proxy against a real redis-server and a real postgres: it relays real
 * clients intact, and its faults land — a held command reaches the store after another client's
 * command, a drop resets the client, a blackhole delivers nothing either way until lifted, a delay
 * lets a later direct command overtake. Assertions are on order and events, never on timings.
 */
import { Redis } from 'ioredis';
import { connect as netConnect } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WireEvent } from '../src/wire/events.ts';
import { WireProxy } from '../src/wire/proxy.ts';
import { startStore } from '../src/families/start-store.ts';
import type { StartedStore } from '../src/stores/types.ts';

const proxies: WireProxy[] = [];
const closers: (() => Promise<unknown> | void)[] = [];

async function proxyFor(store: StartedStore, holder = 'A'): Promise<WireProxy> {
  const proxy = await WireProxy.start({ holder, storeUrl: store.url });
  proxies.push(proxy);
  return proxy;
}

function redis(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  closers.push(() => client.disconnect());
  return client;
}

/** Resolves with the first event `test` accepts (subscribe before acting). */
function nextEvent(proxy: WireProxy, test: (event: WireEvent) => boolean): Promise<WireEvent> {
  return new Promise((resolve) => {
    const off = proxy.on((event) => {
      if (!test(event)) return;
      off();
      resolve(event);
    });
  });
}

const commandWith = (fate: string, name: string) => (event: WireEvent) =>
  event.type === 'command' && event.fate === fate && event.command.name === name;

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const proxy of proxies.splice(0)) await proxy.close();
});

describe('wire proxy on redis', () => {
  let store: StartedStore;
  let direct: Redis;
  beforeAll(async () => {
    store = await startStore({ kind: 'redis' }, 'local');
    direct = new Redis(store.url);
  });
  afterAll(async () => {
    direct.disconnect();
    await store.stop();
  });

  it('relays ioredis commands, pipelines, scripts and a 2 MB value intact', async () => {
    const proxy = await proxyFor(store);
    const seen: string[] = [];
    proxy.on((event) => event.type === 'command' && seen.push(event.command.name));
    const a = redis(proxy.url);
    const big = 'x'.repeat(2 * 1024 * 1024);
    expect(await a.set('relay:big', big)).toBe('OK');
    expect(await direct.get('relay:big')).toBe(big);
    const pipeline = a.pipeline();
    for (let i = 0; i < 200; i++) pipeline.incr('relay:n');
    const results = await pipeline.exec();
    expect(results?.map(([, n]) => n)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await a.eval("return redis.call('get', KEYS[1])", 1, 'relay:n')).toBe('200');
    expect(seen.filter((name) => name === 'INCR')).toHaveLength(200);
    expect(seen).toContain('EVAL');
    expect(proxy.records()).toEqual([]);
  });

  it("holds A's DEL until released: it reaches the store after B's SET, with A's next command kept behind it", async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url);
    await a.set('hold:k', 'A');
    const hold = proxy.hold({ command: 'DEL' });
    const queuedBehind = nextEvent(proxy, commandWith('queued-behind-hold', 'GET'));
    const del = a.del('hold:k');
    const after = a.get('hold:k');
    const held = await hold.reached;
    expect(held.command.text).toBe('DEL hold:k');
    await queuedBehind;
    expect(await direct.set('hold:k', 'B')).toBe('OK');
    expect(await direct.get('hold:k')).toBe('B');
    hold.release();
    expect(await del).toBe(1); // A's DEL removed B's key: it arrived after B's SET
    expect(await after).toBeNull();
    const [record] = proxy.records();
    expect(record).toMatchObject({
      kind: 'hold',
      holder: 'A',
      command: 'DEL hold:k',
      connections: [held.connection],
      commandsAffected: 2,
    });
    expect(record!.fromMs).toBe(held.atMs);
    expect(record!.toMs).toBeGreaterThanOrEqual(record!.fromMs!);
  });

  it('recognises an EVALSHA by the body of a script it saw earlier (ioredis defineCommand) and forwards it intact', async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url) as Redis & { compareDel(key: string, token: string): Promise<number> };
    const body = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
    a.defineCommand('compareDel', { numberOfKeys: 1, lua: body });
    expect(await a.compareDel('script:k', 'none')).toBe(0); // first call: ioredis sends EVAL, the proxy learns the body
    await a.set('script:k', 'tok');
    const hold = proxy.hold({ script: /redis\.call\('del'/ });
    const result = a.compareDel('script:k', 'tok');
    const held = await hold.reached;
    expect(held.command.name).toBe('EVALSHA');
    expect(await direct.exists('script:k')).toBe(1);
    hold.release();
    expect(await result).toBe(1);
    expect(await direct.exists('script:k')).toBe(0);
  });

  it('frames a command split across writes, inline commands and a pipelined tail from a raw socket', async () => {
    const proxy = await proxyFor(store);
    const socket = netConnect(proxy.port, '127.0.0.1');
    closers.push(() => void socket.destroy());
    let replies = '';
    const replied = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => replies.includes(text) && (socket.off('data', onData), resolve());
        const onData = (chunk: Buffer) => ((replies += chunk.toString()), check());
        socket.on('data', onData);
        check();
      });
    const hold = proxy.hold({ command: 'SET' });
    let reached = false;
    void hold.reached.then(() => (reached = true));
    const set = '*3\r\n$3\r\nSET\r\n$7\r\nraw:key\r\n$5\r\nvalue\r\n';
    socket.write(`PING\r\n${set.slice(0, 20)}`);
    await replied('+PONG\r\n');
    expect(reached).toBe(false);
    socket.write(`${set.slice(20)}GET raw:key\r\n`);
    const held = await hold.reached;
    expect(held.command.args).toEqual(['raw:key', 'value']);
    expect(await direct.exists('raw:key')).toBe(0);
    hold.release();
    await replied('$5\r\nvalue\r\n');
    expect(replies).toBe('+PONG\r\n+OK\r\n$5\r\nvalue\r\n');
  });

  it('drop resets the connection (the client sees an error) and refuses new ones until lifted', async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url);
    const blocked = a.blpop('drop:nothing', 0);
    await nextEvent(proxy, commandWith('forwarded', 'BLPOP'));
    const drop = proxy.drop({ refuseNew: true });
    await expect(blocked).rejects.toThrow();
    const refused = await new Promise<string>((resolve) => {
      const socket = netConnect(proxy.port, '127.0.0.1');
      socket.on('data', () => resolve('data'));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('close', () => resolve('closed'));
    });
    expect(refused).toBe('ECONNRESET');
    drop.lift();
    expect(await redis(proxy.url).ping()).toBe('PONG');
    expect(proxy.records()[0]).toMatchObject({ kind: 'drop', refusedConnections: 1 });
    expect(proxy.records()[0]!.connections).toHaveLength(2);
  });

  it('refuse leaves open connections alone and resets new ones until lifted', async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url);
    await a.ping();
    const refuse = proxy.refuse();
    expect(await a.ping()).toBe('PONG');
    const refused = await new Promise<string>((resolve) => {
      const socket = netConnect(proxy.port, '127.0.0.1');
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('close', () => resolve('closed'));
    });
    expect(refused).toBe('ECONNRESET');
    refuse.lift();
    expect(await redis(proxy.url).ping()).toBe('PONG');
    expect(proxy.records()[0]).toMatchObject({ kind: 'refuse', refusedConnections: 1 });
  });

  it('blackhole delivers nothing either way until lifted, then everything in order', async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url);
    const subscriber = redis(proxy.url);
    const order: string[] = [];
    subscriber.on('message', (_channel, message) => order.push(`message ${message}`));
    await subscriber.subscribe('bh:channel');
    await a.ping();
    const blackhole = proxy.blackhole();
    const swallowed = nextEvent(proxy, commandWith('blackholed', 'SET'));
    const set = a.set('bh:key', '1').then((reply) => order.push(`reply ${reply}`));
    await swallowed;
    expect(await direct.exists('bh:key')).toBe(0);
    expect(await direct.publish('bh:channel', 'hello')).toBe(1); // the store sent it to the proxy
    order.push('lift');
    blackhole.lift();
    await set;
    await new Promise<void>((resolve) =>
      order.includes('message hello') ? resolve() : subscriber.once('message', () => resolve()),
    );
    expect(order[0]).toBe('lift');
    expect(order).toEqual(expect.arrayContaining(['reply OK', 'message hello']));
    expect(await direct.get('bh:key')).toBe('1');
    expect(proxy.records()[0]).toMatchObject({
      kind: 'blackhole',
      commandsAffected: 1,
      sampleCommands: [expect.stringContaining('SET bh:key 1')],
    });
  });

  it('a gate, closed and opened again under one record, holds each command (a new connection too) until opened', async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url);
    await a.ping();
    const gate = proxy.gate('hold A while its clock is ahead');
    for (const round of [1, 2]) {
      gate.close();
      const stalled = nextEvent(proxy, commandWith('gated', 'SET'));
      const set = a.set(`gate:key${round}`, String(round));
      await stalled;
      expect(await direct.exists(`gate:key${round}`)).toBe(0);
      gate.open();
      expect(await set).toBe('OK');
      expect(await direct.get(`gate:key${round}`)).toBe(String(round));
    }
    // A connection opened while the gate is closed is held as well (its first command: ioredis's ready check).
    gate.close();
    const stalled = nextEvent(proxy, (event) => event.type === 'command' && event.fate === 'gated');
    const late = redis(proxy.url);
    const set = late.set('gate:late', 'x');
    await stalled;
    expect(await direct.exists('gate:late')).toBe(0);
    gate.lift();
    expect(await set).toBe('OK');
    expect(proxy.records()).toHaveLength(1);
    expect(proxy.records()[0]).toMatchObject({ kind: 'gate', what: 'hold A while its clock is ahead' });
    expect(proxy.records()[0]!.commandsAffected).toBeGreaterThanOrEqual(3);
    expect(proxy.records()[0]!.toMs).not.toBeNull();
  });

  it('delay lets a direct command sent after the delayed one reach the store first', async () => {
    const proxy = await proxyFor(store);
    const a = redis(proxy.url);
    await a.ping();
    const delay = proxy.delay(400);
    const delayed = nextEvent(proxy, commandWith('delayed', 'RPUSH'));
    const pushA = a.rpush('delay:order', 'A');
    await delayed;
    await direct.rpush('delay:order', 'B');
    await pushA;
    delay.lift();
    expect(await direct.lrange('delay:order', 0, -1)).toEqual(['B', 'A']);
    expect(proxy.records()[0]).toMatchObject({ kind: 'delay', commandsAffected: 1 });
  });
});

describe('wire proxy on postgres', () => {
  let store: StartedStore;
  let direct: pg.Client;
  beforeAll(async () => {
    store = await startStore({ kind: 'postgres' }, 'local');
    direct = new pg.Client({ connectionString: store.url });
    await direct.connect();
  });
  afterAll(async () => {
    await direct.end();
    await store.stop();
  });

  function pgClient(url: string): pg.Client {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    closers.push(() => client.end().catch(() => {}));
    return client;
  }

  it('relays pg simple and extended queries and a pool running queries in parallel', async () => {
    const proxy = await proxyFor(store);
    const a = pgClient(proxy.url);
    await a.connect();
    expect((await a.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect((await a.query('SELECT $1::text || $2::text AS s', ['wire', 'proxy'])).rows).toEqual([{ s: 'wireproxy' }]);
    const pool = new pg.Pool({ connectionString: proxy.url, max: 3 });
    closers.push(() => pool.end());
    const sums = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.query('SELECT $1::int + 1 AS n', [i])));
    expect(sums.map((r) => r.rows[0].n)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  for (const protocol of ['simple', 'extended'] as const) {
    it(`holds A's pg_advisory_unlock (${protocol} protocol): B stays denied until it is released`, async () => {
      const proxy = await proxyFor(store);
      const a = pgClient(proxy.url);
      await a.connect();
      const b = pgClient(store.url);
      await b.connect();
      await a.query('SELECT pg_advisory_lock(7)');
      const hold = proxy.hold({ text: 'pg_advisory_unlock' });
      const unlock =
        protocol === 'simple'
          ? a.query('SELECT pg_advisory_unlock(7) AS ok')
          : a.query('SELECT pg_advisory_unlock($1) AS ok', [7]);
      const held = await hold.reached;
      expect(held.command).toMatchObject({
        name: protocol === 'simple' ? 'Query' : 'Bind',
        args: protocol === 'simple' ? [] : ['7'],
      });
      expect((await b.query('SELECT pg_try_advisory_lock(7) AS got')).rows[0].got).toBe(false);
      hold.release();
      expect((await unlock).rows[0].ok).toBe(true);
      expect((await b.query('SELECT pg_try_advisory_lock(7) AS got')).rows[0].got).toBe(true);
      await b.query('SELECT pg_advisory_unlock_all()');
      expect(proxy.records()[0]).toMatchObject({
        kind: 'hold',
        command: expect.stringContaining('pg_advisory_unlock'),
      });
    });
  }

  it('drop makes pg see a connection error', async () => {
    const proxy = await proxyFor(store);
    const a = pgClient(proxy.url);
    await a.connect();
    const sleeping = a.query('SELECT pg_sleep(30)');
    await nextEvent(proxy, (event) => event.type === 'command' && event.command.text.includes('pg_sleep'));
    proxy.drop();
    await expect(sleeping).rejects.toThrow();
  });
});
