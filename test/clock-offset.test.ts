/**
 * The clock-offset library on real servers: Redis and Valkey key expiry and TIME follow a stepped offset,
 * Node's Date follows it while performance.now does not.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOffsetLibrary } from '../src/stores/clock-offset/build.ts';
import { serverClockFor } from '../src/stores/clock-offset/server-clock.ts';
import { startStore } from '../src/families/start-store.ts';
import type { StartedStore } from '../src/stores/types.ts';

async function redisTimeMs(redis: Redis): Promise<number> {
  const [seconds, micros] = (await redis.time()) as [string | number, string | number];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe('clock-offset library', () => {
  it('builds once per source version and reuses the build', async () => {
    const first = await clockOffsetLibrary();
    expect(existsSync(first)).toBe(true);
    expect(await clockOffsetLibrary()).toBe(first);
  });

  it('builds once when several runs in one process ask at the same moment, on a machine with no build yet', async () => {
    // A fresh cache dir (TMPDIR) in a fresh process: the reference matrix on a new machine starts
    // several V319 runs at once, which once raced on one temporary file and failed with ENOENT.
    const fresh = mkdtempSync(join(tmpdir(), 'lock-oracles-clock-build-'));
    try {
      const code = `import { clockOffsetLibrary } from ${JSON.stringify(new URL('../src/stores/clock-offset/build.ts', import.meta.url).href)};
        const paths = await Promise.all([1, 2, 3, 4].map(() => clockOffsetLibrary()));
        console.log(JSON.stringify(paths));`;
      const { stdout } = await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        env: { TMPDIR: fresh },
      });
      const paths = JSON.parse(stdout) as string[];
      expect(new Set(paths).size).toBe(1);
      expect(existsSync(paths[0]!)).toBe(true);
      expect(paths[0]!.startsWith(fresh)).toBe(true);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

describe.each(['redis', 'valkey'] as const)('%s-server under the clock-offset library', (kind) => {
  let store: StartedStore;
  let redis: Redis;

  beforeAll(async () => {
    // Starting at all is the first check: libfaketime hangs redis-server 7.0 at start-up.
    store = await startStore({ kind, clockOffsetMs: 0 }, 'local');
    redis = new Redis(store.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await store?.stop();
  });

  it('offers the clock capability and says how it works', () => {
    expect(store.capabilities.clock?.mechanism).toMatch(/LD_PRELOAD/);
    expect(store.capabilities.clock?.offsetMs()).toBe(0);
  });

  it('TIME reflects the offset', async () => {
    const clock = store.capabilities.clock!;
    expect(Math.abs((await redisTimeMs(redis)) - Date.now())).toBeLessThan(2000);
    await clock.setOffsetMs(3_600_000);
    expect((await redisTimeMs(redis)) - Date.now()).toBeGreaterThan(3_600_000 - 2000);
    expect((await redisTimeMs(redis)) - Date.now()).toBeLessThan(3_600_000 + 2000);
    await clock.setOffsetMs(0);
    expect(Math.abs((await redisTimeMs(redis)) - Date.now())).toBeLessThan(2000);
  });

  it('a step forward expires a PX lease at once', async () => {
    const clock = store.capabilities.clock!;
    await clock.setOffsetMs(0);
    await redis.set('lease:forward', 'v', 'PX', 10_000);
    expect(await redis.get('lease:forward')).toBe('v');
    await clock.setOffsetMs(20_000);
    expect(clock.offsetMs()).toBe(20_000);
    expect(await redis.get('lease:forward')).toBeNull();
    await clock.setOffsetMs(0);
  });

  it('a step back lengthens a PX lease', async () => {
    const clock = store.capabilities.clock!;
    await clock.setOffsetMs(0);
    await redis.set('lease:back', 'v', 'PX', 10_000);
    await clock.setOffsetMs(-30_000);
    const pttl = await redis.pttl('lease:back');
    expect(pttl).toBeGreaterThan(30_000);
    expect(pttl).toBeLessThanOrEqual(40_000);
    await clock.setOffsetMs(0);
  });
});

describe('postgres under the clock-offset library', () => {
  let store: StartedStore;
  let client: pg.Client;
  beforeAll(async () => {
    store = await startStore({ kind: 'postgres', clockOffsetMs: 0 }, 'local');
    client = new pg.Client({ connectionString: store.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await store?.stop();
  });

  it('now() and clock_timestamp() follow a step on an open connection', async () => {
    const skewOf = async () => {
      const { rows } = await client.query<{ now: Date; clock: Date }>(
        'select now() as now, clock_timestamp() as clock',
      );
      return { now: rows[0]!.now.getTime() - Date.now(), clock: rows[0]!.clock.getTime() - Date.now() };
    };
    expect(Math.abs((await skewOf()).now)).toBeLessThan(2000);
    await store.capabilities.clock!.setOffsetMs(3_600_000);
    const stepped = await skewOf();
    for (const skew of [stepped.now, stepped.clock]) {
      expect(skew).toBeGreaterThan(3_600_000 - 2000);
      expect(skew).toBeLessThan(3_600_000 + 2000);
    }
    await store.capabilities.clock!.setOffsetMs(-5_000);
    expect((await skewOf()).now).toBeLessThan(-3000);
  });
});

describe('node under the clock-offset library', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'clock-offset-node-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('moves Date.now with the offset and leaves performance.now alone', async () => {
    const clock = (await serverClockFor({ kind: 'redis', clockOffsetMs: 0 }, dir))!;
    // The child prints "Date.now performance.now" for every line it reads.
    const child = execa(
      process.execPath,
      [
        '-e',
        `require('readline').createInterface({input: process.stdin}).on('line', () => console.log(Date.now(), performance.now()))`,
      ],
      { env: clock.env, extendEnv: true, stdin: 'pipe', stdout: 'pipe', reject: false },
    );
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const sample = async () => {
      child.stdin!.write('\n');
      const { value } = await lines.next();
      const [wall, mono] = String(value).split(' ').map(Number);
      return { wall: wall!, mono: mono!, real: Date.now() };
    };
    const before = await sample();
    await clock.control.setOffsetMs(20_000);
    const after = await sample();
    await clock.control.setOffsetMs(-5_000);
    const back = await sample();
    child.stdin!.end();
    await child;

    expect(Math.abs(before.wall - before.real)).toBeLessThan(2000);
    expect(after.wall - after.real).toBeGreaterThan(18_000);
    expect(after.wall - after.real).toBeLessThan(22_000);
    expect(back.wall - back.real).toBeLessThan(-3_000);
    // performance.now kept counting real elapsed time: no 20 s jump, never backwards.
    expect(after.mono - before.mono).toBeGreaterThanOrEqual(0);
    expect(after.mono - before.mono).toBeLessThan(after.real - before.real + 1000);
    expect(back.mono - after.mono).toBeGreaterThanOrEqual(0);
  });
});
