/**
 * The owner-record lease file (targets/fs/lease-file*.ts) under V310 --explore on --store fs, with
 * no variant, hold or seam parameter: A's renewal and release are both explored, at their
 * filesystem calls. The bad twin FAILs at each of the three interleavings of
 * shared/reference/pr-fence-renewal-release.md, each at a named boundary: its renewal's write held
 * after its check (lands over B's record), its release's rm held after its compare (removes B's
 * record), its renewal in flight across its release (re-creates A's record over B's). The twin that
 * reads, checks and writes through the one open file PASSes every point. Real holders, a real
 * directory; a 5000 ms TTL, as the fenced twin's explored reference uses (its lease is stamped before
 * its wx create, through the boundaries' round trips, on a loaded machine).
 */
import { describe, expect, test } from 'vitest';
import { explore } from '../src/explore/explore.ts';

const PARAMS = { ttl: 5000, timeout: 12000 };

describe('V310 --explore on the owner-record lease file', () => {
  test('the bad twin FAILs at each of the three interleavings, at a named filesystem boundary', async () => {
    const { record } = await explore({
      oracle: 'V310',
      target: 'targets/fs/lease-file.ts',
      store: 'fs',
      params: PARAMS,
    });
    const failing = record.exploration!.points.filter((p) => p.verdict === 'FAIL').map((p) => p.label);
    expect(record.verdict).toBe('FAIL');
    expect(failing).toEqual(
      expect.arrayContaining([
        'renewal#2 writeFile lock-oracles:V310.lease, held before it [renewal stalls]',
        'release#2 rm lock-oracles:V310.lease, held before it',
        'renewal#2 writeFile lock-oracles:V310.lease, held before it [renewal across-release]',
      ]),
    );
  }, 300_000);

  test('the twin fenced by the file it checked PASSes every point of its renewal and release', async () => {
    const { record } = await explore({
      oracle: 'V310',
      target: 'targets/fs/lease-file-fenced.ts',
      store: 'fs',
      params: PARAMS,
    });
    const points = record.exploration!.points;
    const why = points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n');
    expect(record.verdict, why).toBe('PASS');
    expect(new Set(points.map((p) => p.boundary.part))).toEqual(new Set(['renewal', 'release']));
    expect(
      points.filter((p) => p.verdict !== 'PASS'),
      why,
    ).toEqual([]);
  }, 300_000);
});
