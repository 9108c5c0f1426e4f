/**
 * What the wire proxy costs: round-trip latency of sequential PINGs (ioredis) and SELECT 1s (pg),
 * direct to the store vs through a holder's proxy with no fault in force, on real servers.
 * Prints a Markdown table for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-proxy.ts [round trips per case, default 2000]
 */
import { Redis } from 'ioredis';
import { loadavg } from 'node:os';
import pg from 'pg';
import { WireProxy } from '../src/wire/proxy.ts';
import { cleanupAll } from '../src/process/cleanup.ts';
import { startStore } from '../src/families/start-store.ts';

const ROUNDS = Number(process.argv[2] ?? 2000);
const WARMUP = 200;

interface Stats {
  median: number;
  p99: number;
}

function stats(samples: number[]): Stats {
  samples.sort((x, y) => x - y);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]! * 1000;
  return { median: at(0.5), p99: at(0.99) };
}

/**
 * Direct and proxied round trips alternate one by one, so CPU frequency changes and load from
 * other processes hit both alike (batches measured one after the other drifted by more than the
 * proxy's cost on this shared machine).
 */
async function compare(direct: () => Promise<unknown>, proxied: () => Promise<unknown>): Promise<[Stats, Stats]> {
  for (let i = 0; i < WARMUP; i++) await Promise.all([direct(), proxied()]);
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    for (const [k, roundTrip] of [direct, proxied].entries()) {
      const began = performance.now();
      await roundTrip();
      times[k]!.push(performance.now() - began);
    }
  }
  return [stats(times[0]), stats(times[1])];
}

const row = (name: string, [direct, proxied]: [Stats, Stats]) =>
  `| ${name} | ${direct.median.toFixed(0)} | ${proxied.median.toFixed(0)} | ${(proxied.median - direct.median).toFixed(0)} | ${direct.p99.toFixed(0)} / ${proxied.p99.toFixed(0)} |`;

async function main(): Promise<void> {
  const rows: string[] = [];
  const redisStore = await startStore({ kind: 'redis' }, 'local');
  const redisProxy = await WireProxy.start({ holder: 'A', storeUrl: redisStore.url });
  const redisDirect = new Redis(redisStore.url);
  const redisThrough = new Redis(redisProxy.url);
  rows.push(
    row(
      `redis ${redisStore.version}: ioredis PING`,
      await compare(
        () => redisDirect.ping(),
        () => redisThrough.ping(),
      ),
    ),
  );
  redisDirect.disconnect();
  redisThrough.disconnect();
  await redisProxy.close();
  await redisStore.stop();

  const pgStore = await startStore({ kind: 'postgres' }, 'local');
  const pgProxy = await WireProxy.start({ holder: 'A', storeUrl: pgStore.url });
  const pgDirect = new pg.Client({ connectionString: pgStore.url });
  const pgThrough = new pg.Client({ connectionString: pgProxy.url });
  await pgDirect.connect();
  await pgThrough.connect();
  rows.push(
    row(
      `${pgStore.version}: pg SELECT 1 (simple)`,
      await compare(
        () => pgDirect.query('SELECT 1'),
        () => pgThrough.query('SELECT 1'),
      ),
    ),
  );
  rows.push(
    row(
      `${pgStore.version}: pg SELECT $1 (extended)`,
      await compare(
        () => pgDirect.query('SELECT $1::int', [1]),
        () => pgThrough.query('SELECT $1::int', [1]),
      ),
    ),
  );
  await pgDirect.end();
  await pgThrough.end();
  await pgProxy.close();
  await pgStore.stop();

  console.log(
    `Round-trip latency in µs, ${ROUNDS} sequential round trips per case, direct and proxied alternating, after ${WARMUP} warm-up; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}.\n`,
  );
  console.log('| case | direct median | proxied median | added per round trip | p99 direct / proxied |');
  console.log('|---|---|---|---|---|');
  for (const line of rows) console.log(line);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
