/**
 * V310 by hand against a Redis container from testcontainers' Redis module (see v310-scenario.ts).
 * Needs a Docker engine and a Redis image: `bash scripts/container-engine.sh` builds one locally.
 */
import { afterAll, beforeAll, test } from 'vitest';
import { RedisContainer, type StartedRedisContainer } from '@testcontainers/redis';
import { bareDelReleaseDeletesTheNextHoldersLock } from './v310-scenario.ts';

let redis: StartedRedisContainer;
// This machine has no image registry (so no Ryuk reaper image) and its engine shares the host's
// network: the server binds a free loopback port on the host network, as the harness's own
// container runtime does (src/stores/store-container.ts).
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
const port = 20_000 + Math.floor(Math.random() * 20_000);

/** The Redis module as it is, minus its port mapping (on the host network nothing is mapped). */
class OnHostNetwork extends RedisContainer {
  constructor(image: string) {
    super(image);
    this.exposedPorts = [];
    delete this.createOpts.ExposedPorts;
    delete this.hostConfig.PortBindings;
    this.withNetworkMode('host');
  }
}

beforeAll(async () => {
  const image = process.env.LOCK_ORACLES_REDIS_IMAGE ?? 'lock-oracles/redis-server:local';
  redis = await new OnHostNetwork(image)
    .withCommand(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', ''])
    .start();
});
afterAll(async () => {
  await redis?.stop();
});

test("a bare DEL release deletes the next holder's lock", async () => {
  await bareDelReleaseDeletesTheNextHoldersLock(`redis://127.0.0.1:${port}`);
});
