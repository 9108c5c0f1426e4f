/**
 * V313's judge on recorded runs of a fault that lands itself (connection-killed: the server ended
 * A's session, its advisory lock with it, while A was held at its first write), with no store and
 * no process: each recorded verdict, and one fact changed at a time moving it the way the property
 * and the preconditions say.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURES, load, rejudge } from './recorded.ts';
import { aAfterB, bFirst, effects, observed, unmet } from './v313-facts.ts';
import { A_STOPPED_AT_POINT, FAULT_LANDED } from '../../oracles/V313/preconditions.ts';

const fixture = (name: string) => load(`${FIXTURES}/V313/${name}.json`);
const bad = fixture('bad-session-lock-connection-killed');
const good = fixture('good-session-lock-checked-connection-killed');
const explored = fixture('bad-session-lock-unchecked-explored-connection-killed');

describe("V313 judge: a connection killed by the store at A's first write", () => {
  it("FAILs the session-locked job that writes on: its writes after B's, the kill named", async () => {
    const { verdict, judgement } = await rejudge(bad);
    expect(verdict).toBe('FAIL');
    expect(aAfterB(bad).length).toBeGreaterThan(0);
    expect(judgement.explanation).toContain('pg_terminate_backend');
  });

  it("is INCONCLUSIVE, naming the fault, when the store closed none of A's connections", async () => {
    const { verdict, judgement } = await rejudge(bad, (f) => {
      const stop = observed(f).stop as { took: boolean };
      stop.took = false;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(FAULT_LANDED);
  });

  it('is INCONCLUSIVE, with the reason, when the fault was tried and did not land (A let go at once, no stop)', async () => {
    const why = 'lease 7587 still lived 11000 ms into the hold';
    const { verdict, judgement } = await rejudge(good, (f) => {
      const o = observed(f);
      o.stop = { kind: 'landed', fault: 'keepalives-held', took: false, since: 0, words: why, notLanded: true };
      // No stop: B never tried while A was stopped, and A's job ran on at once.
      delete o.bWhileStopped;
      delete o.bLease;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(unmet(judgement)).toContain(FAULT_LANDED);
    expect(judgement.preconditions.find((c) => c.name === FAULT_LANDED)?.detail).toBe(
      `keepalives-held was tried at A's first write and did not land: ${why}`,
    );
  });

  it("PASSes the twin that checks its session before each write, and FAILs it with a write of A after B's", async () => {
    expect((await rejudge(good)).verdict).toBe('PASS');
    expect(aAfterB(good)).toEqual([]);
    const { verdict } = await rejudge(good, (f) => {
      // A's write right after B's first, B's session lock read in pg_locks as the harness accepted it.
      const all = effects(f);
      const b = bFirst(f);
      for (const e of all) if (e.seq > b.seq) e.seq += 1;
      const write = { ...b, seq: b.seq + 1, holder: 'A', t: b.t + 1, holderAt: (b.holderAt ?? b.t) + 1 };
      all.splice(all.indexOf(b) + 1, 0, write);
      const lease = observed(f).bLease!;
      lease.atAWrites.push({ seq: write.seq, reading: lease.atFirstWrite });
    });
    expect(verdict).toBe('FAIL');
  });
});

describe('V313 judge: a fault that lands itself at an explored point (--explore)', () => {
  it("FAILs the unchecked session lock at its first write: the store closed A's connections there", async () => {
    const { verdict, judgement } = await rejudge(explored);
    expect(verdict).toBe('FAIL');
    expect(aAfterB(explored).length).toBeGreaterThan(0);
    expect(judgement.notApplicable).toBeUndefined();
  });

  it("leaves the point out, with the landing's reason, when the fault said it does not apply there", async () => {
    const why = "connection-killed needs the store to close a client's connection from its side";
    const { verdict, judgement } = await rejudge(explored, (f) => {
      (observed(f).stop as { notApplicable?: string }).notApplicable = why;
    });
    expect(verdict).toBe('INCONCLUSIVE');
    expect(judgement.notApplicable).toBe(why);
    expect(unmet(judgement)).toContain(A_STOPPED_AT_POINT);
  });
});
