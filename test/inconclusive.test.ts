/** When the fault does not land, the verdict is INCONCLUSIVE, never PASS, and it says why. */
import { describe, expect, test } from 'vitest';
import { runOracle } from '../src/run/run-oracle.ts';
import { unmet } from './unmet.ts';

const fixture = (name: string) => `test/fixtures/targets/${name}.ts`;

describe('INCONCLUSIVE when the fault did not land', () => {
  test('V310 narrow on a release with no seam: the hold could not land between check and delete', async () => {
    const record = await runOracle({
      oracle: 'V310',
      target: fixture('lock-no-seams'),
      params: { variant: 'narrow', hold: 'seam' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/release:before-delete/);
  });

  test('V311 between-commands on an acquire with no seam', async () => {
    const record = await runOracle({
      oracle: 'V311',
      target: fixture('lock-no-seams'),
      params: { variant: 'between-commands' },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions.find((c) => !c.held)?.detail).toMatch(/acquire:after-set/);
  });

  test("V313 when A's lease outlasts the pause: B never takes the lock", async () => {
    const record = await runOracle({ oracle: 'V313', target: fixture('job-long-lease'), params: { timeout: 1200 } });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toContain('A was stopped past its lease and B took the lock');
    expect(record.counts.aWritesAcceptedAfterBFirstWrite).toBe(0);
  });

  test('V313 on a job with a single write: nothing is left to judge after A is stopped', async () => {
    const record = await runOracle({ oracle: 'V313', target: fixture('job-one-write') });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions[0]).toMatchObject({ name: 'the job has writes left after its first', held: false });
    expect(record.counts.writesWhenRunAlone).toBe(1);
  });

  // The gap is made, not hoped for: the bad target's A read-back between the writes takes 20 ms (a fast
  // machine put the plain target's writes under 2 ms apart, and a 1 ms skew then did cross the clocks: a right FAIL).
  test('V318 when the skew is smaller than the real gap between the writes', async () => {
    const record = await runOracle({
      oracle: 'V318',
      target: fixture('clock/lww-wall-clock-slow-read'),
      params: { skew: 1 },
    });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(unmet(record)).toEqual(["B's clock read earlier at its write than A's at A's"]);
  });

  test('V312 when A throws before it ever asks for the lock: ERROR naming job(), as a throwing acquire is', async () => {
    const record = await runOracle({ oracle: 'V312', target: fixture('job-throws-before-lock') });
    expect(record.verdict).toBe('ERROR');
    expect(record.error).toMatch(/holder A: the target's job\(\) threw/);
    expect(record.effects.filter((e) => e.holder === 'A')).toEqual([]);
  });

  test('V312 when the pre-holder never reaches a write', async () => {
    const record = await runOracle({ oracle: 'V312', target: fixture('job-never-writes'), params: { timeout: 1000 } });
    expect(record.verdict).toBe('INCONCLUSIVE');
    expect(record.preconditions[0]).toMatchObject({ name: 'P held the lock', held: false });
  });
});

describe('ERROR when the target breaks', () => {
  test('an acquire that throws is an ERROR naming the member, not a verdict', async () => {
    const record = await runOracle({ oracle: 'V310', target: fixture('acquire-throws') });
    expect(record.verdict).toBe('ERROR');
    expect(record.error).toMatch(/acquire\(\) threw/);
    expect(record.error).toMatch(/acquire exploded/);
  });

  test("a ZooKeeper client's lost connection is INCONCLUSIVE naming it, not the target's ERROR; the same throw on Redis is", async () => {
    const onZk = await runOracle({ oracle: 'V310', target: fixture('acquire-connection-loss'), store: 'zookeeper' });
    expect(onZk.verdict).toBe('INCONCLUSIVE');
    expect(onZk.error).toBeUndefined();
    expect(onZk.explanation).toMatch(
      /acquire\(\) threw: Error: CONNECTION_LOSS.*lost its zookeeper connection or session on its own/,
    );
    const onRedis = await runOracle({ oracle: 'V310', target: fixture('acquire-connection-loss') });
    expect(onRedis.verdict).toBe('ERROR');
    expect(onRedis.error).toMatch(/CONNECTION_LOSS/);
  });
});
