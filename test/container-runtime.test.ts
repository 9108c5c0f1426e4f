/**
 * The container store runtime and the runtime choice. The choice and the refusals need no engine;
 * the store and the oracle runs need a real Docker engine with the Redis image on it
 * (bash scripts/container-engine.sh builds one from this machine's redis-server, no registry) and
 * are skipped, visibly, when none answers.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { getContainerRuntimeClient } from 'testcontainers';
import { afterEach, describe, expect, test } from 'vitest';
import { runOracle } from '../src/run-oracle.ts';
import { refuseRemoteEngine, startContainerStore } from '../src/stores/container-runtime.ts';
import { STORE_LABEL } from '../src/stores/store-container.ts';
import { chooseRuntime, dockerSocketPath, engineAnswers } from '../src/stores/start-store.ts';
import { StoreUnavailableError, type StartedStore } from '../src/stores/types.ts';

process.env.LOCK_ORACLES_REDIS_IMAGE ??= 'lock-oracles/redis-server:local';
const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const noEngine = `(skipped: no Docker engine answers on ${socket ?? process.env.DOCKER_HOST}; run bash scripts/container-engine.sh)`;

describe('runtime choice (no engine needed)', () => {
  const absentSocket = join(tmpdir(), `lock-oracles-no-engine-${randomBytes(4).toString('hex')}.sock`);

  test('auto falls back to local when the engine socket does not exist', async () => {
    expect(await engineAnswers(absentSocket)).toBe(false);
    expect(await chooseRuntime('auto', 'redis', absentSocket)).toBe('local');
  });

  test('auto stays local for a store without container facts, engine or not', async () => {
    expect(await chooseRuntime('auto', 'postgres')).toBe('local');
    expect(await chooseRuntime('auto', 'pgbouncer')).toBe('local');
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

  test('a recipe without container facts names the store and the runtime', async () => {
    const error = await startContainerStore({ kind: 'postgres' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/container runtime cannot start postgres.*docker\/postgres\.ts[\s\S]*--runtime local/);
  });

  test('a store clock offset is refused: the clock library is for local processes only', async () => {
    const error = await startContainerStore({ kind: 'redis', clockOffsetMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/cannot offset redis's clock/);
  });

  test('an engine or container host off loopback is refused before any request', () => {
    expect(() => refuseRemoteEngine({ DOCKER_HOST: 'tcp://10.1.2.3:2375' })).toThrow(/DOCKER_HOST .*"10\.1\.2\.3", not this machine's loopback/);
    expect(() => refuseRemoteEngine({ TESTCONTAINERS_HOST_OVERRIDE: 'docker.example' })).toThrow(/"docker\.example"/);
    expect(() => refuseRemoteEngine({ DOCKER_HOST: 'tcp://127.0.0.1:2375', TESTCONTAINERS_HOST_OVERRIDE: 'localhost' })).not.toThrow();
    expect(() => refuseRemoteEngine({ DOCKER_HOST: 'unix:///var/run/docker.sock' })).not.toThrow();
  });
});

describe('container runtime against a real engine', () => {
  let store: StartedStore | undefined;
  let client: Redis | undefined;
  afterEach(async () => {
    client?.disconnect();
    await store?.stop();
    store = client = undefined;
  });

  const inspect = async (id: string) => (await getContainerRuntimeClient()).container.dockerode.getContainer(id).inspect();
  const containerOn = async (port: number) => {
    const list = await (await getContainerRuntimeClient()).container.list();
    return list.find((c) => c.Labels[STORE_LABEL] === 'redis' && c.Command.includes(`--port ${port}`));
  };

  test.skipIf(!engineUp)(`starts redis in a container on a loopback port, reads its version, pauses, kills and removes it ${engineUp ? '' : noEngine}`, async () => {
    store = await startContainerStore({ kind: 'redis' });
    expect(store.runtime).toBe('container');
    expect(store.url).toBe(`redis://127.0.0.1:${store.port}`);
    expect(store.version).toMatch(/^\d+\.\d+\.\d+$/);
    const container = await containerOn(store.port);
    expect(container, 'a labelled container runs the server').toBeDefined();

    client = new Redis(store.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    expect(await client.ping()).toBe('PONG');

    // Paused: a PING sent now gets no answer while the engine reports the container paused.
    await store.capabilities.pause!();
    let answered = false;
    const ping = client.ping().then((reply) => ((answered = true), reply));
    expect((await inspect(container!.Id)).State.Paused).toBe(true);
    expect(answered).toBe(false);
    await store.capabilities.resume!();
    expect(await ping).toBe('PONG');

    await store.capabilities.kill!();
    const killed = await inspect(container!.Id);
    expect(killed.State.Running).toBe(false);
    expect(killed.State.ExitCode).toBe(137);

    await store.stop();
    expect(await containerOn(store.port)).toBeUndefined();
  });

  test.skipIf(!engineUp)(`V310 FAILs ioredis release-bare-del.ts on a container store ${engineUp ? '' : noEngine}`, async () => {
    const record = await runOracle({ oracle: 'V310', target: 'targets/redis/ioredis/release-bare-del.ts', runtime: 'container' });
    expect(record.store?.runtime).toBe('container');
    expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe('FAIL');
    expect(record.preconditions.every((c) => c.held)).toBe(true);
    expect(record.property?.offending.length).toBeGreaterThan(0);
  });

  test.skipIf(!engineUp)(`V310 PASSes ioredis lock-correct.ts on a container store ${engineUp ? '' : noEngine}`, async () => {
    const record = await runOracle({ oracle: 'V310', target: 'targets/redis/ioredis/lock-correct.ts', runtime: 'container' });
    expect(record.store?.runtime).toBe('container');
    expect(record.verdict, `${record.explanation}\n${record.error ?? ''}`).toBe('PASS');
    expect(record.preconditions.every((c) => c.held)).toBe(true);
  });
});
