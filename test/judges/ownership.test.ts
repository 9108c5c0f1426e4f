/**
 * Whose lock a reading shows when no declared token says (src/judging/ownership.ts), on recorded
 * runs: V310 on a directory lock with no owner record (its owner by the inode each holder's mkdir
 * left), a lease-file library that keeps its owner id to itself (by the inode and the last write),
 * and Redis locks (by the value each holder's acquire wrote at its wire proxy); V311 on the
 * directory lock (the lock B gave up on A's only while it is the same inode). One recorded fact
 * changed at a time moves the verdict, or the way the owner was known, as it must.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge } from './recorded.ts';
import { LOCATED } from '../../oracles/V310/judge.ts';
import { A_KEY_STILL_HELD } from '../../oracles/V311/judge.ts';
import type { V310Observations } from '../../oracles/V310/observations.ts';
import type { V311Observations } from '../../oracles/V311/observations.ts';
import { ownerOf, sameLock, shows, type OwnerFact } from '../../src/judging/ownership.ts';
import { leaseAtWrites, type LeaseReading } from '../../src/judging/lease-at-write.ts';
import type { EffectRecord } from '../../src/core/resource.ts';

const dirChecked = load(`${FIXTURES}/V310/fs-dir-lock-lib-checked-pause.json`);
const dirByPath = load(`${FIXTURES}/V310/fs-dir-lock-lib-by-path-pause.json`);
const leaseLib = load(`${FIXTURES}/V310/fs-lease-lib-by-path-explored.json`);
const redis = load(`${FIXTURES}/V310/redis-lock-correct-pause-owners.json`);
// redis-semaphore's Mutex bound with no token: owners by the value each SET … NX wrote.
const mutex = load(`${FIXTURES}/V310/redis-semaphore-mutex-pause.json`);
const observed = (f: { observations: unknown }) => f.observations as V310Observations;
const unmet = (judgement: { preconditions: Array<{ name: string; held: boolean }> }) =>
  judgement.preconditions.filter((c) => !c.held).map((c) => c.name);
const facts = (o: V310Observations) => o.owners!;

describe('V310 judge, owners observed', () => {
  it("PASSes the directory lock with no owner record: B's own mkdir left the inode there after A's release", async () => {
    const { verdict, judgement } = await rejudge(dirChecked);
    expect(verdict).toBe('PASS');
    expect(judgement.property.detail).toMatch(
      /still held B's lock \(observed: B's mkdir .* at \d+ ms left what is there \(inode \d+\)\)/,
    );
    expect(observed(dirChecked).b!.lease!.token).toBeUndefined();
  });

  it("FAILs the same run had A's own mkdir made the inode found after A's release (A re-created its lock over B's)", async () => {
    const { verdict, judgement } = await rejudge(dirChecked, (f) => {
      const o = observed(f);
      const b = facts(o).find((fact) => fact.holder === 'B')!;
      o.owners = [...facts(o), { ...b, holder: 'A', atMs: o.after!.sentAt - 1 }];
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.property.detail).toMatch(/held A's lock, not B's \(observed: A's mkdir/);
  });

  it("is INCONCLUSIVE, not FAIL, had no traced call made the inode found after A's release (an untraced writer)", async () => {
    const { verdict, judgement } = await rejudge(dirChecked, (f) => {
      observed(f).after!.ino = 999_999_999;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toEqual([LOCATED]);
  });

  it('keeps the plain reading (anything there) when nothing was traced, as with a target reporting no token before', async () => {
    const { verdict, judgement } = await rejudge(dirChecked, (f) => {
      observed(f).owners = [];
    });
    expect(verdict).toBe('PASS');
    expect(judgement.property.detail).toMatch(/whose it is the harness cannot tell/);
  });

  it("FAILs the directory lock unlocked by path: nothing there after A's release and C granted", async () => {
    const { verdict, judgement } = await rejudge(dirByPath);
    expect(verdict).toBe('FAIL');
    expect(judgement.explanation).toMatch(/the path still names the lock it made/);
  });

  it("FAILs the lease-file library's renewal by path, its owner id never reported: A's last write is over B's file", async () => {
    const { verdict, judgement } = await rejudge(leaseLib);
    expect(verdict).toBe('FAIL');
    const o = observed(leaseLib);
    // The token each holder reports is its library handle's id, never what the file holds.
    expect(o.after!.value).not.toBe(o.b!.lease!.token);
    expect(judgement.explanation).toMatch(/held A's lock, not B's \(observed: A's writeFile .* \(inode \d+\)\)/);
  });

  it('is INCONCLUSIVE on the same run with nothing traced: the reported token is not what the file holds', async () => {
    const { verdict, judgement } = await rejudge(leaseLib, (f) => {
      observed(f).owners = [];
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(LOCATED);
    expect(judgement.preconditions.find((c) => c.name === LOCATED)!.detail).toMatch(
      /no call of A's the harness traced made it/,
    );
  });

  it("PASSes the Redis run by declared tokens, and by the values the acquires wrote once B's token is the target's own handle", async () => {
    const declared = await rejudge(redis);
    expect(declared.verdict).toBe('PASS');
    expect(declared.judgement.property.detail).toMatch(/still gave B's token/);
    const byValue = await rejudge(redis, (f) => {
      const o = observed(f);
      o.leaseA = { ...o.leaseA!, token: 'handle-1' };
      o.b!.lease = { ...o.b!.lease!, token: 'handle-2' };
    });
    expect(byValue.verdict).toBe('PASS');
    expect(byValue.judgement.property.detail).toMatch(
      /still held B's lock \(observed: B's acquire SET .* NX at \d+ ms wrote this value\)/,
    );
  });

  it("FAILs the Redis run had A's acquire written the value found after A's release", async () => {
    const { verdict } = await rejudge(redis, (f) => {
      const o = observed(f);
      o.b!.lease = { ...o.b!.lease!, token: 'handle-2' };
      o.after = { ...o.after!, value: o.leaseA!.token! };
    });
    expect(verdict).toBe('FAIL');
  });
});

describe('V310 judge, a Redis lock whose target reports no token', () => {
  it("PASSes redis-semaphore's Mutex: B's own SET … NX wrote the value there after A's release", async () => {
    const { verdict, judgement } = await rejudge(mutex);
    expect(verdict).toBe('PASS');
    expect(observed(mutex).b!.lease!.token).toBeUndefined();
    expect(judgement.property.detail).toMatch(
      /still held B's lock \(observed: B's acquire SET mutex:\S+ \S+ PX \d+ NX at \d+ ms wrote this value\)/,
    );
  });

  it("FAILs the same run had the key held the value A's acquire wrote (A's lock back over B's)", async () => {
    const { verdict, judgement } = await rejudge(mutex, (f) => {
      const o = observed(f);
      o.after = { ...o.after!, value: facts(o).find((fact) => fact.holder === 'A')!.value! };
    });
    expect(verdict).toBe('FAIL');
    expect(judgement.property.detail).toMatch(/held A's lock, not B's/);
  });
});

describe('ownerOf', () => {
  const reading = { exists: true, value: 'v', receivedAt: 100 };
  const wrote = (holder: string, atMs: number): OwnerFact => ({ holder, atMs, call: `SET k v NX`, value: 'v' });

  it('knows no owner when two holders wrote the same value', () => {
    expect(ownerOf(reading, {}, [wrote('A', 10), wrote('B', 20)]).holder).toBeNull();
  });

  it('counts only the calls seen before the read was answered', () => {
    expect(ownerOf(reading, {}, [wrote('A', 10), wrote('B', 200)]).holder).toBe('A');
  });

  it('takes the latest call that left the inode found (a write over the same file)', () => {
    const made = (holder: string, atMs: number): OwnerFact => ({ holder, atMs, call: 'writeFile k', ino: 7 });
    const owner = ownerOf({ ...reading, ino: 7 }, {}, [made('B', 10), made('A', 20)]);
    expect(owner).toMatchObject({ holder: 'A', how: 'observed' });
  });

  it("keeps a lock moved away and back its maker's: a rename onto the path counts only where no call made the inode", () => {
    const at = (holder: string, atMs: number, call: string, moved?: true): OwnerFact => ({
      holder,
      atMs,
      call,
      ino: 9,
      ...(moved ? { moved } : {}),
    });
    const back = ownerOf({ ...reading, ino: 9 }, {}, [at('B', 10, 'mkdir k'), at('C', 20, 'rename t -> k', true)]);
    expect(back.holder).toBe('B');
    const temp = ownerOf({ ...reading, ino: 9 }, {}, [at('C', 20, 'rename t -> k', true)]);
    expect(temp.holder).toBe('C');
  });

  it('shows a holder its own token though another reports the same one (a constant id), and names no owner', () => {
    const tokens = { A: 'v', B: 'v' };
    expect(shows(reading, 'A', tokens, [])).toBe(true);
    expect(ownerOf(reading, tokens, []).holder).toBeNull();
    expect(ownerOf(reading, tokens, []).evidence).toMatch(/A and B all report the token "v"/);
  });

  it('lets a declared token that matches win over the trace', () => {
    expect(ownerOf(reading, { B: 'v' }, [wrote('A', 10)])).toMatchObject({ holder: 'B', how: 'declared' });
  });
});

describe('sameLock', () => {
  it('tells a directory made again at the path from the one read before, though both hold nothing', () => {
    expect(sameLock({ exists: true, value: null, ino: 7 }, { exists: true, value: null, ino: 7 })).toBe(true);
    expect(sameLock({ exists: true, value: null, ino: 7 }, { exists: true, value: null, ino: 8 })).toBe(false);
  });

  it('compares values alone where a reading has no inode (a Redis key)', () => {
    expect(sameLock({ exists: true, value: 'v' }, { exists: true, value: 'v', ino: 8 })).toBe(true);
    expect(sameLock({ exists: true, value: 'v' }, { exists: true, value: 'w' })).toBe(false);
  });

  it("judges A's write outside B's lease when B's directory lock was made again before it (lease-at-write)", () => {
    const read = (ino: number, at: number): LeaseReading => ({
      kind: 'store',
      where: 'stat k.lock',
      sentAt: at,
      receivedAt: at + 1,
      exists: true,
      value: null,
      pttlMs: 500,
      ino,
    });
    const write = { seq: 2, t: 110 } as EffectRecord;
    const [same] = leaseAtWrites([write], [{ seq: 2, reading: read(7, 100) }], read(7, 50));
    const [again] = leaseAtWrites([write], [{ seq: 2, reading: read(8, 100) }], read(7, 50));
    expect(same!.live).toBe(true);
    expect(again!.live).toBe(false);
    expect(again!.why).toMatch(/inode 8 .* not inode 7/);
  });
});

describe('V311 judge, a directory lock with no owner record', () => {
  const dirV311 = load(`${FIXTURES}/V311/fs-dir-lock-lib-checked.json`);
  const v311 = (f: { observations: unknown }) => f.observations as V311Observations;
  /**
   * The same run had B been denied to the end — at TTL + grace and then in the watch, to the
   * patience bound — the lock read then as `ino` (A's inode, or another).
   */
  const deniedWith =
    (ino: number, pttlMs = -1) =>
    (f: { observations: unknown }) => {
      const o = v311(f);
      const end = o.b!.endedAt + 400;
      o.b = { ...o.b!, granted: false, lastAttemptAt: end - 5, endedAt: end };
      o.contenders = o.contenders!.map((c) => ({ ...c, granted: false, lastAttemptAt: end - 5, endedAt: end }));
      const read = { ...o.afterKill!, pttlMs, ino };
      o.stuck = read;
      const bound = o.heldSince! + 2600;
      const tries = [{ holder: 'B', granted: false, attempts: 9, lastAttemptAt: bound - 5, endedAt: bound + 1 }];
      o.watch = { patienceMs: 2600, from: end, tries, freed: null, reads: 9, last: read };
    };

  it("PASSes the recorded run: B took the dead holder's directory", async () => {
    expect((await rejudge(dirV311)).verdict).toBe('PASS');
  });

  it("FAILs had B been denied while A's own directory (its inode) was still there", async () => {
    const { verdict } = await rejudge(dirV311, deniedWith(v311(dirV311).atKill!.ino!));
    expect(verdict).toBe('FAIL');
  });

  it('is INCONCLUSIVE had the directory B gave up on been made again at the path (another inode, both holding nothing)', async () => {
    const atKill = v311(dirV311).atKill!.ino!;
    const again = await rejudge(dirV311, deniedWith(atKill + 1, 50));
    expect(again.verdict).toBe('INCONCLUSIVE');
    expect(unmet(again.judgement)).toContain(A_KEY_STILL_HELD);
    expect(again.judgement.preconditions.find((c) => c.name === A_KEY_STILL_HELD)!.detail).toMatch(
      /another lock: inode/,
    );
    const same = await rejudge(dirV311, deniedWith(atKill, 50));
    expect(unmet(same.judgement)).not.toContain(A_KEY_STILL_HELD);
  });
});
