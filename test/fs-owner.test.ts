/**
 * Whose file lock it is, observed with real holders on a real directory: each holder's making call
 * (its mkdir) reports the inode it left, the harness's read lstat's the inode there, and V310 on a
 * directory lock with no owner record and no token (targets/fs/dir-lock-lib-checked.ts) names B's
 * mkdir as the maker of what the read found after A's release: the inode in the evidence is the one
 * B's own call left last before that read.
 */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';

describe('the owner of a file lock, observed', () => {
  test("V310 names B's mkdir, by the inode it left, as the maker of the lock there after A's release", async () => {
    const record = await runOracle({ oracle: 'V310', target: 'targets/fs/dir-lock-lib-checked.ts', store: 'fs' });
    expect(record.verdict, record.explanation).toBe('PASS');
    const made = record.history.filter((e) => e.kind === 'fs' && e.detail.made !== undefined);
    expect(made.length).toBeGreaterThanOrEqual(2);
    for (const e of made) {
      expect(e.detail.phase).toBe('result');
      expect(e.detail.result).toBe('ok');
      expect(typeof e.detail.ino).toBe('number');
    }
    const after = record.history.find((e) => e.kind === 'store-observed' && e.detail.label === "after A's release")!;
    // The last call before the read that left that inode (a filesystem may reuse a freed inode number).
    const maker = made.filter((e) => e.detail.ino === after.detail.ino && e.t <= after.t).at(-1);
    expect(`${maker?.holder} ${maker?.detail.call}`).toBe('B mkdir lock-oracles:V310.lock');
    expect(record.explanation).toContain(`observed: B's mkdir lock-oracles:V310.lock`);
    expect(record.explanation).toContain(`(inode ${after.detail.ino})`);
  }, 120_000);
});
