/**
 * How often the narrow races reproduce with and without a command held at the wire, and what
 * V315 costs. Prints Markdown for docs/benchmarks.md.
 *
 * - V310 narrow, ioredis GET→compare→DEL release: 20 runs with the DEL held at A's wire proxy
 *   (`--variant narrow --hold wire`), vs 20 tries of the same race on timing alone (no seam, no
 *   hold: A releases 3, 2, 1 or 0 ms before its lease lapses, in turn, while B retries acquire
 *   every millisecond from 5 ms before).
 * - V313 --variant renewal-wire on the ioredis extend-ignored job: 20 runs.
 * - V315 verdict and wall time per reference target and fault, on Redis and Postgres.
 *
 *   npx tsx scripts/bench-wire-holds.ts [runs, default 20]
 */
import { Redis } from 'ioredis';
import { fileURLToPath } from 'node:url';
import { FaultLog } from '../src/core/fault-log.ts';
import { compileHolderModules, Holder } from '../src/holder/holder.ts';
import { acquireWithin } from '../scenarios/retry-acquire.ts';
import { cleanupAll } from '../src/process/cleanup.ts';
import { History } from '../src/core/history.ts';
import { Resource } from '../src/core/resource.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { startStore } from '../src/families/start-store.ts';

const RUNS = Number(process.argv[2] ?? 20);
const NARROW_BAD = 'targets/redis/ioredis/release-get-compare-del.ts';
const TTL = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function verdicts(
  oracle: string,
  target: string,
  params: Record<string, string | number>,
): Promise<{ fails: number; wallMs: number[] }> {
  let fails = 0;
  const wallMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const record = await runOracle({ oracle, target, params });
    if (record.verdict === 'FAIL') fails++;
    else console.error(`${oracle} ${target} run ${i + 1}: ${record.verdict} — ${record.explanation}`);
    wallMs.push(record.timing.wallMs);
  }
  return { fails, wallMs };
}

/** The narrow race on timing alone: no seam held, no command held. Returns how many times B's lock was deleted. */
async function timingOnly(): Promise<number> {
  const store = await startStore({ kind: 'redis' }, 'local');
  const probe = new Redis(store.url);
  const history = new History();
  const ctx = { history, resource: new Resource(), faults: new FaultLog(history) };
  const key = 'bench:narrow-timing';
  const target = await compileHolderModules(fileURLToPath(new URL(`../${NARROW_BAD}`, import.meta.url)));
  const [a, b] = [new Holder('A', target, ctx), new Holder('B', target, ctx)];
  await Promise.all([a, b].map((h) => h.init({ url: store.url, key, ttlMs: TTL, params: {} })));
  let lost = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      await probe.del(key);
      const leaseA = await a.acquire();
      if (!leaseA) throw new Error('A was denied on an empty key');
      const contender = sleep(TTL - 5).then(() => acquireWithin(b, () => performance.now(), 50, 1));
      await sleep(TTL - 3 + (i % 4));
      await a.release(leaseA);
      const { lease: leaseB } = await contender;
      if (leaseB && (await probe.get(key)) !== leaseB.token) lost++;
    }
  } finally {
    await Promise.all([a.close(), b.close()]);
    probe.disconnect();
    await store.stop();
  }
  return lost;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const wire = await verdicts('V310', NARROW_BAD, { variant: 'narrow', hold: 'wire' });
  const timing = await timingOnly();
  const renewal = await verdicts('V313', 'targets/redis/ioredis/lease-extend-ignored.ts', { variant: 'renewal-wire' });
  const v315: string[] = [];
  const leaders = [
    ...['cached-flag', 'taken-once', 'recheck-each-write', 'cached-flag-fenced'].map((name) => ({
      store: 'redis' as const,
      target: `targets/redis/leader/${name}.ts`,
    })),
    ...['cached-flag', 'recheck-each-write'].map((name) => ({
      store: 'postgres' as const,
      target: `targets/postgres/leader/${name}.ts`,
    })),
  ];
  for (const { store, target } of leaders) {
    for (const fault of ['blackhole', 'drop', 'kill']) {
      const record = await runOracle({ oracle: 'V315', target, store, params: { fault } });
      v315.push(
        `| ${target} | ${fault} | ${record.verdict} | ${record.timing.wallMs.toFixed(0)} | ${record.timing.scenarioMs.toFixed(0)} |`,
      );
    }
  }
  console.log(`| race | forced by | reproduced | median run wall ms |`);
  console.log(`|---|---|---|---|`);
  console.log(
    `| V310 narrow (ioredis GET→compare→DEL) | DEL held at A's wire proxy | ${wire.fails}/${RUNS} | ${median(wire.wallMs).toFixed(0)} |`,
  );
  console.log(
    `| V310 narrow (ioredis GET→compare→DEL) | timing only (release 3–0 ms before the TTL lapses, B retries every 1 ms) | ${timing}/${RUNS} | — |`,
  );
  console.log(
    `| V313 renewal (ioredis extend ignored) | compare-and-pexpire held at A's wire proxy | ${renewal.fails}/${RUNS} | ${median(renewal.wallMs).toFixed(0)} |`,
  );
  console.log(`\n| V315 target | fault | verdict | wall ms | scenario ms |\n|---|---|---|---|---|`);
  for (const line of v315) console.log(line);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanupAll();
    // After ~60 runs one stopped redis-server's ChildProcess handle sometimes keeps the event loop
    // alive (its stdio pipes stay referenced although the process exited); do not wait on it.
    process.exit();
  });
