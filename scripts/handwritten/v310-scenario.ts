/**
 * The V310 pause scenario as a user would write it by hand, for `npm run bench`'s side-by-side:
 * two ioredis clients in the test process; A takes a 200 ms lock; A "stops" (it just does nothing)
 * until its TTL has lapsed; B takes the lock; A releases with the bare DEL under test; B's lock is
 * gone. No separate processes, no real SIGSTOP, no evidence: only the interleaving.
 */
import { Redis } from 'ioredis';
import { expect } from 'vitest';

const TTL = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function bareDelReleaseDeletesTheNextHoldersLock(url: string): Promise<void> {
  const [a, b] = [new Redis(url), new Redis(url)];
  try {
    expect(await a.set('lock', 'token-a', 'PX', TTL, 'NX')).toBe('OK');
    let taken: string | null = null;
    while (taken === null) {
      await sleep(TTL / 10);
      taken = await b.set('lock', 'token-b', 'PX', TTL, 'NX');
    }
    await a.del('lock'); // the release under test: no owner check
    expect(await b.get('lock')).toBeNull(); // B's lock is gone
  } finally {
    a.disconnect();
    b.disconnect();
  }
}
