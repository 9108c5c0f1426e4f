/** V310 by hand against a local redis-server started by the test (see v310-scenario.ts). */
import { afterAll, beforeAll, test } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { bareDelReleaseDeletesTheNextHoldersLock } from './v310-scenario.ts';

const port = 20_000 + Math.floor(Math.random() * 20_000);
let server: ResultPromise;

beforeAll(async () => {
  server = execa('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept connections') && resolve());
    server.catch(reject);
  });
});
afterAll(async () => {
  server.kill();
  await server.catch(() => undefined);
});

test("a bare DEL release deletes the next holder's lock", async () => {
  await bareDelReleaseDeletesTheNextHoldersLock(`redis://127.0.0.1:${port}`);
});
