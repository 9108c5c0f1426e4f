/**
 * The explored point "its reply dropped with its connection" on V310 (issue 23, ambiguous replies):
 * A's release command runs in the store while A is still inside its lease, its reply is held until
 * B took the freed lock, then A's connection is dropped with the reply in it. ioredis re-sends the
 * command it had no reply to once it reconnects (its default): a bare DEL then removes B's lock
 * (FAIL, the store ran it twice), a compare-and-delete finds B's token and leaves it (PASS, also
 * run twice). One schedule, two targets: the point finds its command by position among A's
 * commands on the key, so it lands on the DEL and on the EVAL alike. Real redis-server, real holders.
 */
import { expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import type { ExplorePoint } from '../src/oracle/explore-point.ts';

const POINT: ExplorePoint = {
  boundary: {
    part: 'release',
    index: 2,
    kind: 'command',
    name: 'DEL',
    nth: 1,
    text: 'DEL lock-oracles:V310',
    onKey: true,
    keyNth: 1,
  },
  fault: 'reply-dropped',
};
const run = (target: string) =>
  runOracle({ oracle: 'V310', target, params: { variant: 'narrow', hold: 'wire', ttl: 1000 }, point: POINT });

test("a bare DEL whose reply is dropped is re-sent on reconnect and removes B's lock; compare-and-delete survives it", async () => {
  const [bare, cad] = await Promise.all([
    run('targets/redis/ioredis/release-bare-del.ts'),
    run('targets/redis/ioredis/lock-correct.ts'),
  ]);
  expect(bare.verdict, bare.explanation).toBe('FAIL');
  expect(bare.property?.detail).toContain("the store ran A's DEL lock-oracles:V310 2 times");
  expect(bare.counts.aReleaseCommandsRunMoreThanOnce).toBe(1);
  expect(
    bare.faults.some((f) => f.action.startsWith('drop connection #')),
    JSON.stringify(bare.faults),
  ).toBe(true);

  expect(cad.verdict, cad.explanation).toBe('PASS');
  expect(cad.property?.detail).toMatch(/the store ran A's EVAL[\s\S]* 2 times/);
  expect(cad.counts.aReleaseCommandsStoreRan).toBe(2);
}, 120_000);
