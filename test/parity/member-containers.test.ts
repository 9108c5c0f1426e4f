/**
 * --topology etcd:3 and zookeeper:3 with --runtime container (src/stores/container-members.ts):
 * each member its own labelled container on loopback, a member's pause the engine's (the cgroup
 * freezer) and its kill a real SIGKILL, nothing left once the store stops; and a harness SIGKILLed
 * while a member is paused leaves no container after `clean`. In `npm run test:containers` (about
 * 50 s of starts, kept out of `npm test`). Needs the engine and the images (bash
 * scripts/container-engine.sh); skipped, saying so, without them.
 */
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startStore } from '../../src/families/start-store.ts';
import { runOwner } from '../../src/process/run-owner.ts';
import { dockerSocketPath, engineAnswers } from '../../src/stores/engine-socket.ts';
import { OWNER_PID_LABEL, RUN_LABEL, STORE_LABEL } from '../../src/stores/labels.ts';
import { parseTopology } from '../../src/stores/topology.ts';
import type { StartedStore } from '../../src/stores/types.ts';

const socket = dockerSocketPath();
const engineUp = socket !== undefined && (await engineAnswers(socket, 1000));
const noEngine = engineUp
  ? ''
  : ` (skipped: no Docker engine answers on ${socket ?? process.env.DOCKER_HOST}; run bash scripts/container-engine.sh)`;

/** The containers carrying `label`, each with its State (running, paused, exited). */
async function containers(label: string): Promise<Array<{ id: string; state: string }>> {
  const { stdout } = await execa('docker', [
    'ps',
    '-a',
    '--filter',
    `label=${label}`,
    '--format',
    '{{.ID}} {{.State}}',
  ]);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, state] = line.split(' ');
      return { id: id!, state: state! };
    });
}

const states = async (label: string) => (await containers(label)).map((c) => c.state).sort();

describe.each(['etcd', 'zookeeper'] as const)('--topology %s:3 in containers', (kind) => {
  let store: StartedStore | undefined;
  afterEach(async () => {
    await store?.stop();
    store = undefined;
  });

  test.skipIf(!engineUp)(
    `one labelled container per member; a member paused by the engine, killed, and every container removed on stop${noEngine}`,
    async () => {
      store = await startStore({ kind, topology: parseTopology(`${kind}:3`) }, 'container');
      expect(store.runtime).toBe('container');
      const cluster = store.members!;
      expect(cluster.urls).toHaveLength(3);
      for (const url of cluster.urls) expect(url).toMatch(/127\.0\.0\.1:\d+$/);
      const mine = `${RUN_LABEL}=${runOwner().runId}`;
      const ofKind = await containers(mine);
      expect(ofKind).toHaveLength(3);
      for (const { id } of ofKind)
        expect((await execa('docker', ['inspect', '-f', `{{index .Config.Labels "${STORE_LABEL}"}}`, id])).stdout).toBe(
          kind,
        );
      expect(await cluster.leader()).toMatch(/^m[123]$/);

      await cluster.pause('m2');
      expect(await states(mine)).toEqual(['paused', 'running', 'running']);
      await cluster.resume('m2');
      expect(await states(mine)).toEqual(['running', 'running', 'running']);

      // Killed: the member's container SIGKILLed and removed; the other two still elect a leader.
      await cluster.kill('m3');
      expect(await states(mine)).toEqual(['running', 'running']);
      expect(cluster.members.find((m) => m.name === 'm3')!.state).toBe('killed');

      await cluster.pause('m1');
      await store.stop();
      store = undefined;
      expect(await containers(mine)).toEqual([]);
    },
    180_000,
  );
});

describe('a SIGKILLed harness on --topology etcd:3 --runtime container', () => {
  test.skipIf(!engineUp)(
    `leaves no container after clean, a paused member's included${noEngine}`,
    async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'container-members-'));
      const cli = (args: string[]) =>
        execa('npx', ['tsx', 'src/cli/main.ts', ...args], { reject: false, env: { TMPDIR: tmp }, timeout: 180_000 });
      // A 30 s lease: the run waits, A's member paused, for as long as the test needs.
      const run = cli([
        ...['V313', '--store', 'etcd', '--topology', 'etcd:3', '--runtime', 'container'],
        ...['--target', 'targets/etcd/lock-job.ts', '--fault', 'member-paused', '--ttl', '30000', '--timeout', '60000'],
        ...['--no-report', '--report-dir', tmp],
      ]);
      let seen = '';
      await new Promise<void>((resolve, reject) => {
        run.stderr!.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (/was stopped \(SIGSTOP\)/.test(seen)) resolve();
        });
        void run.then(() => reject(new Error(`the run ended before A's member was paused:\n${seen}`)));
      });
      const { stdout } = await execa('pgrep', ['-f', `loader\\.mjs.*src/cli/main\\.ts V313 .*--report-dir ${tmp}`], {
        reject: false,
      });
      const harness = Number(stdout.trim().split('\n')[0]);
      expect(harness).toBeGreaterThan(0);
      const owned = `${OWNER_PID_LABEL}=${harness}`;
      expect(await states(owned)).toEqual(['paused', 'running', 'running']);

      process.kill(harness, 'SIGKILL');
      await run;
      // Another run's start reaps a dead run's containers too, so some may be gone already; clean removes the rest.
      const clean = await cli(['clean', '--json']);
      expect(clean.exitCode, clean.stderr).toBe(0);
      expect(await containers(owned)).toEqual([]);
    },
    240_000,
  );
});
