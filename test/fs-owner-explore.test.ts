/**
 * A lease-file library that keeps its owner id to itself (targets/fs/lease-lib.ts), bound through
 * its public API only, under V310 --explore on --store fs: its targets report the library handle's
 * id as token, which the lease file never holds, so whose record is there is observed from the
 * holders' own calls (the inode each one's create left, the last write). The version before the fix
 * FAILs where its renewal's write lands over B's record, the verdict naming the observed owner; the
 * fenced version PASSes every point — none INCONCLUSIVE for want of a token. Real holders, a real
 * directory; a 5000 ms TTL, as the fenced lease file's explored reference uses.
 */
import { describe, expect, test } from 'vitest';
import { explore } from '../src/explore/explore.ts';

const PARAMS = { ttl: 5000, timeout: 12000 };

describe('V310 --explore on a lease-file library hiding its owner id', () => {
  test("the renewal by path FAILs, A's write over B's record observed by inode", async () => {
    const { record } = await explore({
      oracle: 'V310',
      target: 'targets/fs/lease-lib-by-path.ts',
      store: 'fs',
      params: PARAMS,
    });
    const points = record.exploration!.points;
    const failing = points.filter((p) => p.verdict === 'FAIL').map((p) => p.label);
    expect(record.verdict).toBe('FAIL');
    expect(failing).toEqual(
      expect.arrayContaining([
        'renewal#2 writeFile lock-oracles:V310.lease, held before it [renewal stalls]',
        'release#2 rm lock-oracles:V310.lease, held before it',
      ]),
    );
    expect(record.explanation).toMatch(/observed: /);
    expect(points.map((p) => p.reason).join('\n')).not.toMatch(/report as token/);
  }, 300_000);

  test('the fenced library PASSes every point of its renewal and release', async () => {
    const { record } = await explore({
      oracle: 'V310',
      target: 'targets/fs/lease-lib-fenced.ts',
      store: 'fs',
      params: PARAMS,
    });
    const points = record.exploration!.points;
    const why = points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n');
    expect(record.verdict, why).toBe('PASS');
    expect(
      points.filter((p) => p.verdict !== 'PASS'),
      why,
    ).toEqual([]);
  }, 300_000);
});
