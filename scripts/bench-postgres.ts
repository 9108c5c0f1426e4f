/**
 * Postgres and PgBouncer start times, and V314's wall time per scenario, on real servers.
 * Postgres is started two ways, each to its first answered query: initdb into a fresh dir, or a
 * copy of the cached template (what the store recipe does). Prints Markdown for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-postgres.ts [repetitions, default 5]
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgresBinaries } from '../src/families/postgres/postgres-binaries.ts';
import { copyTemplate, ensureTemplate, initCluster } from '../src/families/postgres/postgres-template.ts';
import { startPostgresServer } from '../src/families/postgres/recipe.ts';
import { giveTo, serverUser } from '../src/stores/server-user.ts';
import { cleanupAll, cleanupDir } from '../src/process/cleanup.ts';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { freePort } from '../src/stores/free-port.ts';
import { startStore } from '../src/families/start-store.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const REPETITIONS = Number(process.argv[2] ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => x.toFixed(0);

/** Time `prepare` (make a data dir in `runDir`) and then a start to the first answer. */
async function startVia(prepare: (dataDir: string) => Promise<void>): Promise<{ prepareMs: number; startMs: number }> {
  const bin = findPostgresBinaries();
  if (!bin) throw new Error('Postgres is not installed: npm run setup');
  const user = serverUser();
  const runDir = mkdtempSync(join(tmpdir(), 'lock-oracles-bench-'));
  const removeDir = cleanupDir(runDir);
  try {
    giveTo(user, runDir);
    const dataDir = join(runDir, 'data');
    const began = performance.now();
    await prepare(dataDir);
    const prepared = performance.now();
    const server = await startPostgresServer({
      bin,
      user,
      dataDir,
      runDir,
      port: await freePort(),
      request: { kind: 'postgres' },
    });
    const answered = performance.now();
    await server.stop();
    return { prepareMs: prepared - began, startMs: answered - prepared };
  } finally {
    await removeDir();
  }
}

async function main(): Promise<void> {
  const bin = findPostgresBinaries()!;
  const user = serverUser();
  const template = await ensureTemplate(bin, user);
  const rows: string[] = [];

  const viaInitdb = [];
  const viaCopy = [];
  for (let i = 0; i < REPETITIONS; i++) {
    viaInitdb.push(await startVia((dir) => initCluster(bin, user, dir)));
    viaCopy.push(await startVia((dir) => copyTemplate(template, dir)));
  }
  const line = (name: string, runs: Array<{ prepareMs: number; startMs: number }>) =>
    `| ${name} | ${ms(median(runs.map((r) => r.prepareMs)))} | ${ms(median(runs.map((r) => r.startMs)))} | ${ms(median(runs.map((r) => r.prepareMs + r.startMs)))} |`;
  rows.push('| Postgres start | make the data dir | start to first answer | total |', '|---|---|---|---|');
  rows.push(
    line('initdb --no-sync, then start', viaInitdb),
    line('copy the cached template (cp -a), then start', viaCopy),
  );

  const postgres = [];
  const pgbouncer = [];
  for (let i = 0; i < REPETITIONS; i++) {
    const pg = await startStore({ kind: 'postgres' }, 'local');
    postgres.push(pg.startMs);
    await pg.stop();
    const bouncer = await startStore({ kind: 'pgbouncer', poolMode: 'transaction' }, 'local');
    pgbouncer.push({ total: bouncer.startMs, own: bouncer.startMs - (bouncer.backend?.startMs ?? 0) });
    await bouncer.stop();
  }
  rows.push('', '| store (local runtime, startMs) | median ms |', '|---|---|');
  rows.push(`| postgres (template copy + start) | ${ms(median(postgres))} |`);
  rows.push(`| pgbouncer, including its own Postgres | ${ms(median(pgbouncer.map((b) => b.total)))} |`);
  rows.push(`| pgbouncer alone (spawn to first admin-console answer) | ${ms(median(pgbouncer.map((b) => b.own)))} |`);

  rows.push(
    '',
    '| V314 run (median of ' + REPETITIONS + ') | verdict | wall | store start | holders ready | scenario |',
    '|---|---|---|---|---|---|',
  );
  const cases = [
    { name: 'pool, bad: advisory-lock-pool-query', target: 'targets/postgres/advisory-lock-pool-query.ts', params: {} },
    { name: 'pool, good: advisory-xact-lock', target: 'targets/postgres/advisory-xact-lock.ts', params: {} },
    {
      name: 'pooler (transaction), bad: advisory-lock-pool-query',
      target: 'targets/postgres/advisory-lock-pool-query.ts',
      params: { scenario: 'pooler' },
    },
    {
      name: 'pooler (transaction), good: advisory-xact-lock',
      target: 'targets/postgres/advisory-xact-lock.ts',
      params: { scenario: 'pooler' },
    },
  ];
  for (const c of cases) {
    const runs: EvidenceRecord[] = [];
    for (let i = 0; i < REPETITIONS; i++)
      runs.push(await runOracle({ oracle: 'V314', target: c.target, params: c.params }));
    const verdicts = [...new Set(runs.map((r) => r.verdict))].join('/');
    const t = (pick: (r: EvidenceRecord) => number) => ms(median(runs.map(pick)));
    rows.push(
      `| ${c.name} | ${verdicts} | ${t((r) => r.timing.wallMs)} | ${t((r) => r.timing.storeStartMs)} | ${t((r) => r.timing.holdersReadyMs)} | ${t((r) => r.timing.scenarioMs)} |`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (after the run), ${REPETITIONS} repetitions, ms\n`,
  );
  console.log(rows.join('\n'));
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
