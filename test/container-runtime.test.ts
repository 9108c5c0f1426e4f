/**
 * The container store runtime and the runtime choice. The choice and the refusals need no engine;
 * the stores and the oracle runs need a real Docker engine with the images on it
 * (bash scripts/container-engine.sh builds them from this machine's Debian packages, no registry)
 * and are skipped, visibly, when none answers.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, test } from 'vitest';
import { imageCandidates } from '../src/stores/images.ts';
import { runOracle } from '../src/run/run-oracle.ts';
import { dockerSocketPath, engineAnswers } from '../src/stores/engine-socket.ts';
import { OWNER_PID_LABEL, RUN_LABEL, STORE_LABEL } from '../src/stores/labels.ts';
import { runOwner } from '../src/process/run-owner.ts';
import { chooseRuntime, startStore } from '../src/families/start-store.ts';
import { fourLetterWord } from '../src/families/zookeeper/four-letter.ts';
import type { StartedStore, StoreKind } from '../src/stores/types.ts';
import { chooseImage, localEngine, refuseRemoteEngine } from '../src/stores/container-engine.ts';
import { StoreContainer } from '../src/stores/store-container.ts';
import { freePort } from '../src/stores/free-port.ts';
import { memberArgs } from '../src/families/etcd/member-args.ts';
import { etcdRecipe } from '../src/families/etcd/recipe.ts';

const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const noEngine = engineUp
  ? ''
  : ` (skipped: no Docker engine answers on ${socket ?? process.env.DOCKER_HOST}; run bash scripts/container-engine.sh)`;

describe('runtime choice (no engine needed)', () => {
  const absentSocket = join(tmpdir(), `lock-oracles-no-engine-${randomBytes(4).toString('hex')}.sock`);

  test('auto is local when the store is installed here, engine or not', async () => {
    expect(await engineAnswers(absentSocket)).toBe(false);
    for (const kind of ['redis', 'valkey', 'postgres', 'pgbouncer'] as const)
      expect(await chooseRuntime('auto', kind, absentSocket)).toBe('local');
  });

  test('auto with neither the binaries nor an engine is a usage error (exit 2) naming both fixes', async () => {
    const result = await execa(
      'npx',
      [
        'tsx',
        'src/cli/main.ts',
        'V310',
        '--store',
        'valkey',
        '--runtime',
        'auto',
        '--target',
        'targets/redis/ioredis/lock-correct.ts',
        '--no-report',
      ],
      {
        reject: false,
        env: { LOCK_ORACLES_VALKEY_SERVER: '/nonexistent/valkey-server', DOCKER_HOST: `unix://${absentSocket}` },
        timeout: 60_000,
      },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /--runtime auto cannot start valkey: not locally \(\/nonexistent\/valkey-server is not installed.*\) and not in a container \(no Docker engine answers on .*no-engine/,
    );
    expect(result.stderr).toMatch(/To fix: npm run setup .*, or bash scripts\/container-engine\.sh/);
  });

  test('local and container are taken as given', async () => {
    expect(await chooseRuntime('local', 'redis', absentSocket)).toBe('local');
    expect(await chooseRuntime('container', 'redis', absentSocket)).toBe('container');
  });

  test('the socket comes from DOCKER_HOST when it is a unix socket', () => {
    expect(dockerSocketPath({})).toBe('/var/run/docker.sock');
    expect(dockerSocketPath({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).toBe('/run/user/1000/docker.sock');
    expect(dockerSocketPath({ DOCKER_HOST: 'tcp://127.0.0.1:2375' })).toBeUndefined();
  });

  test('images are pinned in docker/images.json: the local build first, then the official image; an override alone', () => {
    expect(imageCandidates('postgres', {})).toEqual([
      'lock-oracles/postgres:local',
      expect.stringMatching(/^postgres:15\.\d+-bookworm$/),
    ]);
    expect(imageCandidates('valkey', { LOCK_ORACLES_VALKEY_IMAGE: 'my/valkey:1' })).toEqual(['my/valkey:1']);
    for (const kind of ['redis', 'valkey', 'postgres', 'pgbouncer', 'etcd', 'zookeeper'] as const) {
      for (const image of imageCandidates(kind, {})) expect(image, 'pinned, never :latest').toMatch(/:[\w.-]+$/);
    }
  });

  test('an engine or container host off loopback is refused before any request', () => {
    expect(() => refuseRemoteEngine({ DOCKER_HOST: 'tcp://10.1.2.3:2375' })).toThrow(
      /DOCKER_HOST .*"10\.1\.2\.3", not this machine's loopback/,
    );
    expect(() => refuseRemoteEngine({ TESTCONTAINERS_HOST_OVERRIDE: 'docker.example' })).toThrow(/"docker\.example"/);
    expect(() =>
      refuseRemoteEngine({ DOCKER_HOST: 'tcp://127.0.0.1:2375', TESTCONTAINERS_HOST_OVERRIDE: 'localhost' }),
    ).not.toThrow();
    expect(() => refuseRemoteEngine({ DOCKER_HOST: 'unix:///var/run/docker.sock' })).not.toThrow();
  });
});

/** One question to the store over its own protocol; resolves with the answer (rejects when the store is gone). */
type Ask = () => Promise<string>;

/** The answer each kind's question gets: PONG, SELECT 1's 1, etcd's version, ZooKeeper's imok. */
const ANSWER = /^(PONG|1|3\.\d+\.\d+|imok)$/;

function asker(store: StartedStore, closers: Array<() => void>): Ask {
  // etcd: its HTTP /version; ZooKeeper: the ruok four-letter word. Neither times out by itself, so a
  // question asked while the container is paused is answered once it resumes.
  if (store.kind === 'etcd')
    return async () =>
      ((await (await fetch(`${store.url.replace(/\/$/, '')}/version`)).json()) as { etcdserver: string }).etcdserver;
  if (store.kind === 'zookeeper') return () => fourLetterWord(store.port, 'ruok', 60_000);
  if (store.kind === 'redis' || store.kind === 'valkey') {
    const client = new Redis(store.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    closers.push(() => client.disconnect());
    return () => client.ping();
  }
  const client = new pg.Client({ connectionString: store.url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  closers.push(() => void client.end().catch(() => undefined));
  const connected = client.connect();
  return async () => {
    await connected;
    return String((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one);
  };
}

/** The store's wall clock in ms since the epoch, read from the server itself. */
async function storeNowMs(store: StartedStore): Promise<number> {
  if (store.kind === 'redis' || store.kind === 'valkey') {
    const client = new Redis(store.url);
    try {
      const [seconds, micros] = await client.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    } finally {
      client.disconnect();
    }
  }
  const client = new pg.Client({ connectionString: (store.backend ?? store).url });
  await client.connect();
  try {
    return Number(
      (await client.query<{ ms: string }>('SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms'))
        .rows[0]!.ms,
    );
  } finally {
    await client.end();
  }
}

const containerIds = async (filter: string) =>
  (await execa('docker', ['ps', '-aq', '--no-trunc', '--filter', filter])).stdout.split('\n').filter(Boolean);

/** The kinds whose container recipe offsets the server's wall clock (V317's store-clock variants). */
const CLOCKED: readonly StoreKind[] = ['redis', 'valkey', 'postgres', 'pgbouncer'];

describe.each(['redis', 'valkey', 'postgres', 'pgbouncer', 'etcd', 'zookeeper'] as const)(
  '%s in a container against a real engine',
  (kind: StoreKind) => {
    let store: StartedStore | undefined;
    const closers: Array<() => void> = [];
    afterEach(async () => {
      closers.splice(0).forEach((close) => close());
      await store?.stop();
      store = undefined;
    });

    test.skipIf(!engineUp)(
      `starts on a loopback port with the run's labels, answers, pauses, resumes, is killed and removed${noEngine}`,
      async () => {
        store = await startStore({ kind }, 'container');
        expect(store.runtime).toBe('container');
        expect(store.url).toContain(`127.0.0.1:${store.port}`);
        expect(store.version).toMatch(kind === 'valkey' ? /^8\./ : kind === 'etcd' ? /^3\.4\./ : /\d+\.\d+/);
        const [id, ...others] = await containerIds(`label=${RUN_LABEL}=${runOwner().runId}`)
          .then((ids) =>
            Promise.all(
              ids.map(
                async (i) =>
                  [
                    i,
                    (await execa('docker', ['inspect', '-f', `{{index .Config.Labels "${STORE_LABEL}"}}`, i])).stdout,
                  ] as const,
              ),
            ),
          )
          .then((pairs) => pairs.filter(([, k]) => k === kind).map(([i]) => i));
        expect(others, 'one container of this kind for this run').toEqual([]);
        expect(
          (await execa('docker', ['inspect', '-f', `{{index .Config.Labels "${OWNER_PID_LABEL}"}}`, id!])).stdout,
        ).toBe(String(process.pid));

        const ask = asker(store, closers);
        expect(await ask()).toMatch(ANSWER);

        // Paused: a question asked now gets no answer while the engine reports the container paused.
        await store.capabilities.pause!();
        let answered = false;
        const pending = ask().then((reply) => ((answered = true), reply));
        expect((await execa('docker', ['inspect', '-f', '{{.State.Paused}}', id!])).stdout).toBe('true');
        await new Promise((r) => setTimeout(r, 200));
        expect(answered).toBe(false);
        await store.capabilities.resume!();
        expect(await pending).toMatch(ANSWER);

        await store.capabilities.kill!();
        expect((await execa('docker', ['inspect', '-f', '{{.State.Running}} {{.State.ExitCode}}', id!])).stdout).toBe(
          'false 137',
        );

        await store.stop();
        expect(await containerIds(`id=${id}`)).toEqual([]);
      },
    );

    test.skipIf(!engineUp || !CLOCKED.includes(kind))(
      `its wall clock is offset and stepped at run time (clock-offset library bind-mounted)${noEngine}`,
      async () => {
        store = await startStore({ kind, clockOffsetMs: 3_600_000 }, 'container');
        const clock = store.capabilities.clock!;
        expect(clock.mechanism).toMatch(/LD_PRELOAD/);
        expect((await storeNowMs(store)) - Date.now()).toBeGreaterThan(3_600_000 - 2000);
        await clock.setOffsetMs(-60_000);
        const behind = (await storeNowMs(store)) - Date.now();
        expect(behind).toBeLessThan(-60_000 + 2000);
        expect(behind).toBeGreaterThan(-60_000 - 2000);
      },
    );
  },
);

describe('a container server that cannot start', () => {
  test.skipIf(!engineUp)(
    `etcd whose peer port is taken fails at once, quoting its own words, and leaves no container${noEngine}`,
    async () => {
      // What a CI run met as "Log stream ended and message /serving client traffic/ was not
      // received": the server exited before its ready line and the error did not say why.
      const held = createServer();
      await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
      const peerPort = (held.address() as AddressInfo).port;
      const clientPort = await freePort();
      const image = await chooseImage(await localEngine(), 'etcd');
      const server = {
        command: ['etcd', ...memberArgs(clientPort, peerPort, '/data/member', 'info')],
        readyLog: /serving client traffic/,
      };
      const label = `etcd container :${clientPort}`;
      try {
        const start = new StoreContainer(image, 'etcd', server, clientPort).startRemovable(label);
        await expect(start).rejects.toThrow(
          new RegExp(`${label} did not start: .*its last output lines:[\\s\\S]*address already in use`),
        );
        expect(await containerIds(`label=${RUN_LABEL}=${runOwner().runId}`)).toEqual([]);
      } finally {
        held.close();
      }
    },
  );

  test('the etcd recipe listens for peers on the second port the runtime picked, never on port + 1', () => {
    const command = etcdRecipe.container!.command(20_000, { request: { kind: 'etcd' }, secondPort: 30_000 });
    expect(command).toContain('--listen-peer-urls=http://127.0.0.1:30000');
    expect(command.join(' ')).not.toContain('20001');
  });
});

describe('oracles on container stores', () => {
  test.skipIf(!engineUp)(`V310 FAILs ioredis release-bare-del.ts on a valkey container${noEngine}`, async () => {
    const record = await runOracle({
      oracle: 'V310',
      target: 'targets/redis/ioredis/release-bare-del.ts',
      store: 'valkey',
      runtime: 'container',
    });
    expect(record.store?.runtime).toBe('container');
    expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe('FAIL');
    expect(record.preconditions.every((c) => c.held)).toBe(true);
    expect(record.property?.offending.length).toBeGreaterThan(0);
  });

  test.skipIf(!engineUp)(
    `V317 store-ahead FAILs the app-clock lease on a postgres container (store clock in the container)${noEngine}`,
    async () => {
      const record = await runOracle({
        oracle: 'V317',
        target: 'targets/clock/lease-app-clock-expiry.ts',
        params: { variant: 'store-ahead' },
        store: 'postgres',
        runtime: 'container',
      });
      expect(record.store?.runtime).toBe('container');
      expect(record.store?.clock?.mechanism).toMatch(/bind-mounted into the container/);
      expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe('FAIL');
    },
  );
});
