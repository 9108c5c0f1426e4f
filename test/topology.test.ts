/**
 * --topology on real redis-server processes and in real containers (--runtime container, skipped
 * visibly when no Docker engine answers): replication held at the harness's relay makes a failover
 * lose a write (deterministically); a Sentinel-mode ioredis client follows a real Sentinel
 * failover to the promoted replica; a redlock node restarted empty, its clock stepped, paused;
 * nothing (node, Sentinel, relay, container) outlives a SIGKILLed harness once `clean` has run.
 */
import { execa } from 'execa';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, test } from 'vitest';
import { startStore, type RuntimeChoice } from '../src/families/start-store.ts';
import { parseTopology } from '../src/stores/topology.ts';
import { RUN_DIR } from '../src/run/reaper.ts';
import { dockerSocketPath, engineAnswers } from '../src/stores/engine-socket.ts';
import { RUN_LABEL } from '../src/stores/labels.ts';
import { LinkRelay } from '../src/wire/link-relay.ts';

const now = () => performance.now();
const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const noEngine = engineUp
  ? ''
  : ` (skipped: no Docker engine answers on ${socket ?? process.env.DOCKER_HOST}; run bash scripts/container-engine.sh)`;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('--topology', () => {
  test('parses the shapes and refuses nonsense', () => {
    expect(parseTopology('replicated')).toEqual({ kind: 'replicated', replicas: 1, masters: 1 });
    expect(parseTopology('redlock')).toEqual({ kind: 'redlock', replicas: 0, masters: 5 });
    expect(parseTopology('sentinel:2').replicas).toBe(2);
    expect(() => parseTopology('redlock:4')).toThrow(/odd number/);
    expect(() => parseTopology('cluster')).toThrow(/expected single/);
  });

  test('refuses a topology of a non-Redis store', async () => {
    await expect(startStore({ kind: 'postgres', topology: parseTopology('replicated') })).rejects.toThrow(
      /starts Redis or Valkey nodes/,
    );
  });
});

describe.each([
  ['local', false, ''],
  ['container', !engineUp, noEngine],
] as Array<[RuntimeChoice, boolean, string]>)('--topology on --runtime %s', (runtime, skip, note) => {
  test.skipIf(skip)(
    `replication held at the relay: the failover loses the write; every node is on loopback${note}`,
    async () => {
      const store = await startStore({ kind: 'redis', topology: parseTopology('replicated') }, runtime);
      const client = new Redis(store.url, { maxRetriesPerRequest: 3 });
      client.on('error', () => undefined);
      try {
        const topology = store.topology!;
        for (const node of topology.nodes) expect(new URL(node.url).hostname).toBe('127.0.0.1');
        await client.set('kept', 'replicated');
        await topology.replicasCaughtUp(5000);
        const hold = topology.holdReplication();
        await client.set('lost', 'master only');
        expect(await client.wait(1, 50)).toBe(0); // WAIT on the writing connection sees no replica ack
        const failover = await topology.failover(10_000, now);
        hold.lift();
        expect(failover).toMatchObject({ killed: 'm1', promoted: 'r1' });
        expect(await client.get('kept')).toBe('replicated');
        expect(await client.get('lost')).toBeNull();
        expect(topology.master().name).toBe('r1');
      } finally {
        client.disconnect();
        await store.stop();
      }
    },
  );

  test.skipIf(skip)(
    `a Sentinel-mode ioredis client follows a real failover to the promoted replica${note}`,
    async () => {
      const store = await startStore({ kind: 'redis', topology: parseTopology('sentinel') }, runtime);
      const { sentinels, masterName } = store.topology!.endpoints;
      const client = new Redis({
        sentinels: sentinels!.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })),
        name: masterName!,
        maxRetriesPerRequest: 50,
      });
      client.on('error', () => undefined);
      try {
        await client.set('before', '1');
        const failover = await store.topology!.failover(20_000, now);
        expect(failover.how).toMatch(/Sentinels' failover/);
        await client.set('after', '2'); // ioredis asks the Sentinels again once its master is gone
        const promoted = store.topology!.nodes.find((n) => n.name === failover.promoted)!;
        const direct = new Redis(promoted.url);
        try {
          expect(await direct.get('after')).toBe('2');
          expect(await direct.info('replication')).toMatch(/role:master/);
        } finally {
          direct.disconnect();
        }
      } finally {
        client.disconnect();
        await store.stop();
      }
    },
  );

  test.skipIf(skip)(
    `redlock:3: one master restarted empty on its port, one clock stepped past the TTL, one paused${note}`,
    async () => {
      const store = await startStore({ kind: 'redis', topology: parseTopology('redlock:3') }, runtime);
      const topology = store.topology!;
      const clients = topology.endpoints.urls.map((url) => new Redis(url, { maxRetriesPerRequest: 5 }));
      for (const client of clients) client.on('error', () => undefined);
      try {
        expect(new Set(topology.endpoints.urls).size).toBe(3);
        // The counter beside the masters: a server of its own, on loopback, no master.
        const counterUrl = topology.endpoints.counterUrl!;
        expect(new URL(counterUrl).hostname).toBe('127.0.0.1');
        expect(topology.endpoints.urls).not.toContain(counterUrl);
        for (const client of clients) await client.set('lock', 'A', 'PX', 60_000);
        const restarted = await topology.restart('m1', 100, now);
        expect(restarted.startedAt - restarted.stoppedAt).toBeGreaterThanOrEqual(100);
        expect(await clients[0]!.get('lock')).toBeNull(); // no persistence: the key is gone
        await topology.stepClock('m2', 120_000);
        expect(await clients[1]!.pttl('lock')).toBe(-2); // expired by m2's own clock, 60 s early
        expect(await clients[2]!.get('lock')).toBe('A');
        await topology.pause('m3');
        const paused = new Redis(topology.endpoints.urls[2]!, { commandTimeout: 200, maxRetriesPerRequest: 0 });
        paused.on('error', () => undefined);
        await expect(paused.get('lock')).rejects.toThrow(/timed out/i);
        await topology.resume('m3');
        paused.disconnect();
      } finally {
        for (const client of clients) client.disconnect();
        await store.stop();
      }
    },
  );

  test.skipIf(skip)(
    `one holder's link to a master: its requests kept (cut off), or the master's replies kept (in flight)${note}`,
    async () => {
      const store = await startStore({ kind: 'redis', topology: parseTopology('redlock:1') }, runtime);
      const master = store.topology!.nodes[0]!;
      const link = await LinkRelay.start('test link to m1', master.port);
      const holder = new Redis(link.port, '127.0.0.1');
      const direct = new Redis(master.port, '127.0.0.1');
      try {
        const cut = link.hold('to-upstream');
        const set = holder.set('k', 'A');
        await cut.reached;
        expect(await direct.get('k')).toBeNull(); // the request never reached the master
        cut.lift();
        expect(await set).toBe('OK');
        const replies = link.hold('to-client');
        let answered = false;
        const get = holder.get('k').then((value) => ((answered = true), value));
        await replies.reached;
        await direct.set('k', 'B'); // the master has answered the held GET already: "A"
        expect(answered).toBe(false);
        replies.lift();
        expect(await get).toBe('A');
      } finally {
        holder.disconnect();
        direct.disconnect();
        await link.close();
        await store.stop();
      }
    },
  );
});

/** Start a topology in a harness stand-in; what it said it started, and its SIGKILL. */
async function startHarness(
  topology: string,
  runtime: RuntimeChoice,
  tmp: string,
): Promise<{ runId: string; ports: number[]; kill: () => Promise<void> }> {
  const harness = execa('npx', ['tsx', 'test/fixtures/start-topology.ts', topology, runtime], {
    env: { TMPDIR: tmp },
    reject: false,
  });
  const started = await new Promise<{ pid: number; runId: string; ports: number[] }>((resolve, reject) => {
    let seen = '';
    harness.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = /\{"pid".*\}/.exec(seen);
      if (line) resolve(JSON.parse(line[0]) as { pid: number; runId: string; ports: number[] });
    });
    void harness.then((r) => reject(new Error(`the stand-in ended first: ${r.stderr}`)));
  });
  const kill = async () => {
    process.kill(started.pid, 'SIGKILL');
    await harness;
  };
  return { ...started, kill };
}

/** The ports of `ports` still listening once `timeoutMs` has passed (or none are). */
async function stillListening(ports: number[], timeoutMs: number): Promise<number[]> {
  const deadline = performance.now() + timeoutMs;
  let open = ports;
  while (open.length && performance.now() < deadline) {
    open = (await Promise.all(ports.map(async (p) => ((await listening(p)) ? [p] : [])))).flat();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return open;
}

const runContainers = async (runId: string) =>
  (await execa('docker', ['ps', '-aq', '--filter', `label=${RUN_LABEL}=${runId}`])).stdout.split('\n').filter(Boolean);

describe('nothing left behind', () => {
  const tmps: string[] = [];
  const scratch = () => {
    const tmp = mkdtempSync(join(tmpdir(), 'topology-leftovers-'));
    tmps.push(tmp);
    return tmp;
  };
  afterEach(() => {
    for (const tmp of tmps.splice(0)) rmSync(tmp, { recursive: true, force: true });
  });

  test('a SIGKILLed harness leaves no node, Sentinel or relay behind; clean removes its run dirs', async () => {
    const tmp = scratch();
    const { ports, kill } = await startHarness('sentinel', 'local', tmp);
    await kill();
    expect(ports.length).toBe(2 + 3 + 1);
    expect(await stillListening(ports, 5000)).toEqual([]);
    const runDirs = () => readdirSync(tmp).filter((f) => RUN_DIR.test(f));
    expect(runDirs().length).toBe(5); // a run dir per node: left by the SIGKILLed harness
    await execa('npx', ['tsx', 'src/cli/main.ts', 'clean'], { env: { TMPDIR: tmp } });
    expect(runDirs()).toEqual([]);
  });

  test.skipIf(!engineUp)(
    `in containers: the SIGKILLed harness's relays close with it, clean removes its node containers and run dirs${noEngine}`,
    async () => {
      const tmp = scratch();
      const { runId, ports, kill } = await startHarness('sentinel', 'container', tmp);
      expect(ports.length).toBe(2 + 3 + 1);
      // A container per node, labelled with the run (counted while its owner lives: no reaper touches them).
      expect((await runContainers(runId)).length).toBe(5);
      await kill(); // the containers outlive it (the engine runs them) until a reaper sees their owner gone
      const runDirs = () => readdirSync(tmp).filter((f) => RUN_DIR.test(f));
      expect(runDirs().length).toBe(5);
      // clean reaps them (or another run's reaper did first: every run reaps a dead owner's containers).
      await execa('npx', ['tsx', 'src/cli/main.ts', 'clean'], { env: { TMPDIR: tmp } });
      expect(await runContainers(runId)).toEqual([]);
      expect(await stillListening(ports, 5000)).toEqual([]);
      expect(runDirs()).toEqual([]);
    },
  );
});
