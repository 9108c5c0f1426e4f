/**
 * freePort: a port handed out is not handed out again by the same process while a run may still be
 * about to bind it (a selfcheck met "listen EADDRINUSE" on a cluster node's port, given twice).
 */
import { expect, test } from 'vitest';
import { freePort } from '../src/stores/free-port.ts';

test('3000 picks in one process are 3000 different ports (about 160 would repeat by chance alone)', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 3000; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
});
