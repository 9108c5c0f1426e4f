/**
 * Nothing outlives a run: what a SIGKILLed harness leaves (its temp dir; a Postgres shared memory
 * segment; its store container) is
 * removed by the next run or by `clean`, and a live run's is never touched (src/run/reaper.ts).
 */
import { execa } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { reapLeftovers } from '../src/run/reaper.ts';
import { claimDir, OWNER_FILE } from '../src/process/run-owner.ts';
import { OWNER_PID_LABEL, OWNER_START_LABEL, RUN_LABEL, STORE_LABEL } from '../src/stores/labels.ts';
import { dockerSocketPath, engineAnswers } from '../src/stores/engine-socket.ts';
import { postmasterSegment, sharedMemorySegments } from '../src/stores/sysv-shm.ts';

const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const noEngine = engineUp
  ? ''
  : ` (skipped: no Docker engine answers on ${socket ?? process.env.DOCKER_HOST}; run bash scripts/container-engine.sh)`;

const cli = (args: string[], tmp: string) =>
  execa('npx', ['tsx', 'src/cli/main.ts', ...args], { reject: false, env: { TMPDIR: tmp }, timeout: 90_000 });
const runDirs = (tmp: string) =>
  readdirSync(tmp).filter((f) => /^lock-oracles-(redis|valkey|postgres|pgbouncer|etcd)-/.test(f));
const containersOf = async (label: string) =>
  (await execa('docker', ['ps', '-aq', '--filter', `label=${label}`], { reject: false })).stdout
    .trim()
    .split('\n')
    .filter(Boolean);

const LONG_LEASE_RUN = ['V313', '--target', 'test/fixtures/targets/job-long-lease.ts', '--timeout', '60000'];

/** Start a run (default: V313 on a lease that never lapses), wait until it is mid-scenario (`until` printed), SIGKILL the harness; returns what it printed. */
async function killMidRun(
  tmp: string,
  extra: string[] = [],
  beforeKill?: (harness: number) => Promise<void>,
  run_ = LONG_LEASE_RUN,
  until = /waiting for its 300 ms lease/,
): Promise<string> {
  // --report-dir only puts `tmp` on the harness's command line, to find it (nothing is written).
  const run = cli([...run_, '--no-report', '--report-dir', tmp, ...extra], tmp);
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    run.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (until.test(seen)) resolve();
    });
    void run.then(() => reject(new Error(`the run ended before it was mid-scenario:\n${seen}`)));
  });
  // The harness: the node process tsx started with its loader on src/cli/main.ts.
  const { stdout } = await execa('pgrep', ['-f', `loader\\.mjs.*src/cli/main\\.ts ${run_[0]} .*--report-dir ${tmp}`], {
    reject: false,
  });
  const harness = Number(stdout.trim().split('\n')[0]);
  expect(harness).toBeGreaterThan(0);
  await beforeKill?.(harness);
  process.kill(harness, 'SIGKILL');
  await run;
  return seen;
}

describe('a SIGKILLed run leaves nothing behind for long', () => {
  test('its temp dir is removed by the next run; its store server died with it', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'leftovers-local-'));
    const seen = await killMidRun(tmp);
    const port = /127\.0\.0\.1:(\d+)/.exec(seen)![1]!;
    const [left] = runDirs(tmp);
    expect(left, 'the killed run left its temp dir').toBeDefined();
    const next = await cli(['V310', '--target', 'targets/redis/ioredis/lock-correct.ts', '--no-report'], tmp);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toContain(`removed a dead run's leftover: dir ${join(tmp, left!)}`);
    expect(runDirs(tmp)).toEqual([]);
    expect((await execa('pgrep', ['-af', `redis-server.*:${port}`], { reject: false })).stdout.trim()).toBe('');
  });

  test("a killed Postgres run's dir and System V shared memory segment are removed by the next run", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'leftovers-postgres-'));
    // The postgres server user must reach the data dir under it, as under /tmp.
    chmodSync(tmp, 0o1777);
    let segment: number | undefined;
    await killMidRun(
      tmp,
      ['--store', 'postgres', '--ttl', '30000', '--timeout', '60000'],
      async () => {
        segment = postmasterSegment(join(tmp, runDirs(tmp)[0]!, 'data'))?.id;
      },
      ['V313', '--target', 'targets/postgres/job-xact-lock.ts'],
      /waiting for its 30000 ms lease/,
    );
    expect(segment, 'the running postmaster named its segment').toBeDefined();
    // The postmaster died with the harness; its backends follow it within a moment.
    await expect
      .poll(() => sharedMemorySegments().find((s) => s.id === segment)?.attached ?? 0, { timeout: 30_000 })
      .toBe(0);
    expect(
      sharedMemorySegments().some((s) => s.id === segment),
      'the killed postmaster left its segment',
    ).toBe(true);
    const clean = await cli(['clean', '--json'], tmp);
    expect(clean.exitCode, clean.stderr).toBe(0);
    const reaped = JSON.parse(clean.stdout) as { removed: string[] };
    expect(reaped.removed.some((what) => what.startsWith(`shared memory segment ${segment} of ${tmp}`))).toBe(true);
    expect(sharedMemorySegments().some((s) => s.id === segment)).toBe(false);
    expect(runDirs(tmp)).toEqual([]);
  });

  test("a killed etcd run's member died with it, and clean removes its dir with the member's data", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'leftovers-etcd-'));
    const seen = await killMidRun(
      tmp,
      ['--store', 'etcd', '--ttl', '30000', '--timeout', '60000'],
      undefined,
      ['V313', '--target', 'targets/etcd/lock-job.ts'],
      /waiting for its 30000 ms lease/,
    );
    const port = /127\.0\.0\.1:(\d+)/.exec(seen)![1]!;
    const [left] = runDirs(tmp);
    expect(left, 'the killed run left its dir').toBeDefined();
    await expect
      .poll(async () =>
        (await execa('pgrep', ['-f', `etcd .*127\\.0\\.0\\.1:${port}`], { reject: false })).stdout.trim(),
      )
      .toBe('');
    const clean = await cli(['clean', '--json'], tmp);
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect((JSON.parse(clean.stdout) as { removed: string[] }).removed.join('\n')).toContain(join(tmp, left!));
    expect(runDirs(tmp)).toEqual([]);
  });

  test.skipIf(!engineUp)(`its store container is removed by clean${noEngine}`, async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'leftovers-container-'));
    // The harness's container, found by its owner label while the harness still runs (no reaper touches it then).
    let runId = '';
    const seen = await killMidRun(tmp, ['--runtime', 'container'], async (harness) => {
      runId = (
        await execa('docker', [
          'ps',
          '-a',
          '--filter',
          `label=${OWNER_PID_LABEL}=${harness}`,
          '--format',
          `{{.Label "${RUN_LABEL}"}}`,
        ])
      ).stdout.trim();
    });
    expect(seen).toMatch(/\(container, \d+ ms[;)]/);
    expect(runId, 'the run had one labelled container').toMatch(/^\d+-[0-9a-f]+$/);
    const label = `${RUN_LABEL}=${runId}`;
    const clean = await cli(['clean', '--json'], tmp);
    expect(clean.exitCode, clean.stderr).toBe(0);
    const reaped = JSON.parse(clean.stdout) as { removed: string[]; failed: string[] };
    // Every run's start reaps too, so a run of another process may have removed it first; either
    // way it is gone now, and clean names it whenever it was still there.
    const named = reaped.removed.some((what) => what.startsWith('container ') && what.includes(runId));
    expect(named || (await containersOf(label)).length === 0).toBe(true);
    expect(await containersOf(label)).toEqual([]);
  });
});

describe('the reaper removes only what a dead run owned', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'leftovers-reaper-'));
  const saved = process.env.TMPDIR;
  afterEach(() => {
    // Assigning undefined to process.env would set the string "undefined".
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  test("a live run's dir stays; a dead run's dir, and an unowned dir older than an hour, go", async () => {
    process.env.TMPDIR = tmp;
    const live = join(tmp, 'lock-oracles-redis-live');
    const dead = join(tmp, 'lock-oracles-postgres-dead');
    const young = join(tmp, 'lock-oracles-valkey-young');
    const old = join(tmp, 'lock-oracles-pgbouncer-old');
    const cache = join(tmp, 'lock-oracles-cache');
    for (const dir of [live, dead, young, old, cache]) mkdirSync(dir);
    claimDir(live);
    // A process that has exited: its pid (no longer running) owns `dead`.
    const exited = execa('true');
    const gone = { pid: exited.pid! };
    await exited;
    writeFileSync(join(dead, OWNER_FILE), JSON.stringify({ runId: `${gone.pid}-dead`, pid: gone.pid, pidStart: '1' }));
    const reaped = await reapLeftovers(Date.now());
    const laterStill = await reapLeftovers(Date.now() + 2 * 60 * 60 * 1000);
    expect(reaped.removed.filter((w) => w.includes(tmp))).toEqual([
      `dir ${dead} (run ${gone.pid}-dead, pid ${gone.pid} gone)`,
    ]);
    const later = laterStill.removed.filter((w) => w.includes(tmp)).sort();
    expect(later).toHaveLength(2);
    expect(later[0]).toMatch(new RegExp(`^dir ${old} \\(no owner recorded, \\d+ min old\\)$`));
    expect(later[1]).toMatch(new RegExp(`^dir ${young} \\(no owner recorded, \\d+ min old\\)$`));
    expect(readdirSync(tmp).sort()).toEqual(['lock-oracles-cache', 'lock-oracles-redis-live']);
  });
});

describe('two reapers at once', () => {
  test.skipIf(!engineUp)(
    `both remove a dead run's running containers and neither reports the other's removal as a failure${noEngine}`,
    async () => {
      const exited = execa('true');
      const pid = exited.pid!;
      await exited;
      const run = `${pid}-two-reapers`;
      const labels = [STORE_LABEL, 'redis', RUN_LABEL, run, OWNER_PID_LABEL, String(pid), OWNER_START_LABEL, '1'];
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const labelArgs = labels.flatMap((_, j) => (j % 2 ? [] : ['--label', `${labels[j]}=${labels[j + 1]}`]));
        // Running (a server listening on no port), so each removal has a process to kill and takes a while.
        const { stdout } = await execa('docker', [
          'run',
          '-d',
          '--network',
          'host',
          ...labelArgs,
          'lock-oracles/redis-server:local',
          'redis-server',
          '--port',
          '0',
        ]);
        ids.push(stdout.trim());
      }
      const [first, second] = await Promise.all([reapLeftovers(), reapLeftovers()]);
      const ours = (lines: string[]) => lines.filter((line) => ids.some((id) => line.includes(id.slice(0, 12))));
      expect([...ours(first.failed), ...ours(second.failed)]).toEqual([]);
      // Each removal is reported once at most; other runs' reapers in the suite may remove some first.
      const removed = ours([...first.removed, ...second.removed]);
      const removedIds = removed.map((line) => ids.find((id) => line.includes(id.slice(0, 12))));
      expect(new Set(removedIds).size).toBe(removed.length);
      expect(await containersOf(`${RUN_LABEL}=${run}`)).toEqual([]);
    },
  );
});
