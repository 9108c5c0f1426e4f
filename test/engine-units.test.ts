/** The engine's pure rules: parameters, fencing, verdicts, exit codes, the loopback guard. */
import { describe, expect, test } from 'vitest';
import { dayRealBudgetMs } from '../oracles/V319/params.ts';
import { resolveParams, optionName, defaultDeadlineMs } from '../src/core/params.ts';
import { ParamError } from '../src/core/errors.ts';
import { Resource } from '../src/core/resource.ts';
import { decideVerdict, type Judgement, type Verdict } from '../src/core/judgement.ts';
import { combineVerdicts } from '../src/report/evidence.ts';
import { exitCodeFor } from '../src/cli/exit-codes.ts';
import { assertLoopbackUrl } from '../src/stores/loopback.ts';
import { runPool } from '../src/run/run-pool.ts';
import V313 from '../oracles/V313/index.ts';
import V319 from '../oracles/V319/index.ts';
import { runBatch } from '../src/run/run-batch.ts';
import { checkReference } from '../src/run/references.ts';
import { knownWalls, longestFirst, rememberWalls } from '../src/run/reference-order.ts';
import { referenceMatrix } from '../src/run/reference-matrix.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { isTopologyFault, topologyFaultsAt } from '../src/faults/registry.ts';
import { topologyBoundaries } from '../src/oracle/explore-spec.ts';
import type { Boundary } from '../src/oracle/explore-point.ts';

const specs = {
  ttl: { kind: 'ms', default: 200, min: 20, doc: 'ttl' },
  variant: { kind: 'choice', default: 'pause', choices: ['pause', 'narrow'], doc: 'v' },
  stepMs: { kind: 'ms', default: 5, doc: 's' },
} as const;

describe('parameters', () => {
  test('defaults fill in, strings parse, option names are kebab-case', () => {
    expect(resolveParams(specs, { ttl: '350', variant: 'narrow' })).toEqual({ ttl: 350, variant: 'narrow', stepMs: 5 });
    expect(resolveParams(specs, { ttl: '40ms' }).ttl).toBe(40);
    expect(optionName('stepMs')).toBe('--step-ms');
  });
  test("a choice's bare value: the option alone ('' from the CLI) means it; any choice may still be named", () => {
    const flag = { strict: { kind: 'choice', default: 'off', choices: ['off', 'on'], bare: 'on', doc: '' } } as const;
    expect(resolveParams(flag, {}).strict).toBe('off');
    expect(resolveParams(flag, { strict: '' }).strict).toBe('on');
    expect(resolveParams(flag, { strict: 'off' }).strict).toBe('off');
  });
  test.each([
    [{ ttl: '-5' }, /--ttl must be at least 20, got -5/],
    [{ ttl: 'soon' }, /--ttl must be a whole number of milliseconds in decimal digits, got "soon"/],
    [{ ttl: '0x40' }, /--ttl must be a whole number of milliseconds in decimal digits, got "0x40"/],
    [{ ttl: '1e3' }, /in decimal digits, got "1e3"/],
    [{ ttl: '' }, /--ttl needs a value \(e\.g\. --ttl 300\)/],
    [{ variant: '' }, /--variant needs a value \(e\.g\. --variant pause \| narrow\)/],
    [{ ttl: '1000000000' }, /--ttl must be at most 120000, got 1000000000/],
    [{ variant: 'wide' }, /--variant must be one of pause \| narrow, got "wide"/],
    [{ pauze: '3' }, /unknown option --pauze \(this oracle takes: --ttl, --variant, --step-ms\)/],
  ])('%j is refused naming the option and the value', (given, message) => {
    expect(() => resolveParams(specs, given)).toThrow(ParamError);
    expect(() => resolveParams(specs, given)).toThrow(message);
  });
});

describe('the resource', () => {
  test('records arrival order across holders', () => {
    const r = new Resource();
    r.record('A', 'write', {}, 1);
    r.record('B', 'write', {}, 2);
    expect(r.effects().map((e) => `${e.seq}${e.holder}`)).toEqual(['1A', '2B']);
  });
  test('rejects a fencing token older than the newest it has seen, accepts equal and newer', () => {
    const r = new Resource();
    expect(r.record('A', 'w', { fence: 1 }, 1).accepted).toBe(true);
    expect(r.record('B', 'w', { fence: 2 }, 2).accepted).toBe(true);
    const stale = r.record('A', 'w', { fence: 1 }, 3);
    expect(stale.accepted).toBe(false);
    expect(stale.reason).toBe('stale fencing token 1 < newest 2');
    expect(r.record('B', 'w', { fence: 2 }, 4).accepted).toBe(true);
    expect(r.acceptedAfter('A', 2)).toEqual([]);
  });
});

describe('verdicts', () => {
  const judgement = (held: boolean, preconditions: boolean[]): Judgement => ({
    preconditions: preconditions.map((h, i) => ({ name: `p${i}`, held: h, detail: '' })),
    property: { name: 'x', held, detail: '', offending: [] },
    counts: {},
    explanation: '',
  });
  test('an unmet precondition is INCONCLUSIVE, whatever the property says', () => {
    expect(decideVerdict(judgement(true, [true, false]))).toBe('INCONCLUSIVE');
    expect(decideVerdict(judgement(false, [false]))).toBe('INCONCLUSIVE');
  });
  test('with every precondition met, the property decides', () => {
    expect(decideVerdict(judgement(true, [true]))).toBe('PASS');
    expect(decideVerdict(judgement(false, [true]))).toBe('FAIL');
  });
  test('over several runs one violation is a violation', () => {
    expect(combineVerdicts(['PASS', 'FAIL', 'PASS'])).toBe('FAIL');
    expect(combineVerdicts(['PASS', 'INCONCLUSIVE'])).toBe('INCONCLUSIVE');
    expect(combineVerdicts(['PASS', 'ERROR', 'INCONCLUSIVE'])).toBe('ERROR');
    expect(combineVerdicts(['PASS', 'PASS'])).toBe('PASS');
  });
  test('exit codes: 0 PASS or as expected, 1 FAIL or unexpected, 2 ERROR, 3 INCONCLUSIVE', () => {
    expect(exitCodeFor('PASS')).toBe(0);
    expect(exitCodeFor('FAIL')).toBe(1);
    expect(exitCodeFor('FAIL', 'fail')).toBe(0);
    expect(exitCodeFor('PASS', 'fail')).toBe(1);
    expect(exitCodeFor('ERROR', 'fail')).toBe(2);
    expect(exitCodeFor('INCONCLUSIVE', 'pass')).toBe(3);
  });
});

describe('the loopback guard', () => {
  test.each(['redis://127.0.0.1:6379', 'redis://localhost:1', 'postgres://u@127.0.0.2:5432/db', 'redis://[::1]:6379'])(
    'accepts %s',
    (url) => {
      expect(() => assertLoopbackUrl(url)).not.toThrow();
    },
  );
  test.each([
    'redis://10.0.0.5:6379',
    'redis://cache.internal:6379',
    'postgres://db.example.com/x',
    'redis://128.0.0.1:1',
    'redis://127.999.999.999:6379',
    'redis://127.0.0.256:1',
    'redis://127.evil.example:1',
  ])('refuses %s, naming no option that does not exist', (url) => {
    expect(() => assertLoopbackUrl(url)).toThrow(/only touches stores on loopback/);
    expect(() => assertLoopbackUrl(url)).not.toThrow(/--store-url/);
  });
});

describe('the run pool', () => {
  /** A piece of work that finishes when the test says so, recording how many run at once. */
  function gated() {
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const finish = new Map<number, (error?: Error) => void>();
    const work = (item: number, index: number) =>
      new Promise<string>((resolve, reject) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        started.push(index);
        finish.set(index, (error) => {
          inFlight--;
          if (error) reject(error);
          else resolve(`r${item}`);
        });
      });
    return { work, started, finish, peak: () => peak, inFlight: () => inFlight };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  test('runs at most `jobs` at once and returns results in input order', async () => {
    const g = gated();
    const pool = runPool([10, 20, 30, 40], 2, g.work);
    await tick();
    expect(g.started).toEqual([0, 1]);
    g.finish.get(1)!();
    await tick();
    expect(g.started).toEqual([0, 1, 2]);
    g.finish.get(2)!();
    await tick();
    g.finish.get(0)!();
    await tick();
    g.finish.get(3)!();
    expect(await pool).toEqual(['r10', 'r20', 'r30', 'r40']);
    expect(g.peak()).toBe(2);
  });

  test('after a rejection starts nothing new and rejects only once in-flight work settled', async () => {
    const g = gated();
    let settled = false;
    const pool = runPool([1, 2, 3, 4], 2, g.work).finally(() => (settled = true));
    pool.catch(() => {});
    await tick();
    g.finish.get(0)!(new Error('run 0 broke'));
    await tick();
    expect(g.started).toEqual([0, 1]);
    expect(settled).toBe(false);
    g.finish.get(1)!();
    await expect(pool).rejects.toThrow('run 0 broke');
    expect(g.inFlight()).toBe(0);
  });

  test('refuses a job count that is not a whole number ≥ 1', async () => {
    await expect(runPool([1], 0, async () => 1)).rejects.toThrow(/jobs must be a whole number ≥ 1, got 0/);
  });
});

describe('V313 --contender', () => {
  test('come-and-go and after-lift read the lock key, so they are refused on Postgres before a store starts', () => {
    const params = (contender: string) => resolveParams(V313.params, { contender });
    expect(V313.storeRequest?.(params('come-and-go'), 'redis')).toEqual({ kind: 'redis' });
    expect(V313.storeRequest?.(params('hold'), 'postgres')).toEqual({ kind: 'postgres' });
    expect(() => V313.storeRequest?.(params('after-lift'), 'postgres')).toThrow(
      /--contender after-lift .* needs a store that shows it \(Redis, Valkey\); on postgres use --contender hold/,
    );
  });
});

describe('default deadlines', () => {
  test("V319's grows per simulated day by a minute plus the day's real-time budget (which follows --cpu-budget)", () => {
    const params = (days: string, cpuBudget?: number) =>
      resolveParams(V319.params, { days, ...(cpuBudget ? { cpuBudget } : {}) });
    const one = V319.deadlineMs!(params('Europe/Berlin:2025-03-30'));
    const two = V319.deadlineMs!(params('Europe/Berlin:2025-03-30,Europe/Berlin:2025-10-26'));
    expect(two - one).toBe(60_000 + dayRealBudgetMs(params('Europe/Berlin:2025-03-30')));
    const bigger = V319.deadlineMs!(params('Europe/Berlin:2025-03-30', 120_000));
    expect(bigger).toBeGreaterThan(one);
    expect(one).toBeGreaterThan(defaultDeadlineMs(V319.params, params('Europe/Berlin:2025-03-30')));
  });
});

describe('a batch of runs', () => {
  const record = (verdict: Verdict, explanation: string) => ({ verdict, explanation }) as EvidenceRecord;

  test('an INCONCLUSIVE among parallel runs is played again alone, after the others, and the crowded attempt is kept', async () => {
    let inFlight = 0;
    const plays: Array<{ index: number; alongside: number }> = [];
    const replayed: number[] = [];
    const records = await runBatch(
      [0, 1, 2],
      { jobs: 2, onReplay: (index) => replayed.push(index) },
      async (_, index) => {
        inFlight++;
        plays.push({ index, alongside: inFlight - 1 });
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        const crowdedFirst = index === 1 && plays.filter((p) => p.index === 1).length === 1;
        return crowdedFirst ? record('INCONCLUSIVE', 'B never acquired') : record('PASS', `run ${index}`);
      },
    );
    expect(records.map((r) => r.verdict)).toEqual(['PASS', 'PASS', 'PASS']);
    expect(records[1]!.crowdedAttempt).toEqual({ verdict: 'INCONCLUSIVE', explanation: 'B never acquired', jobs: 2 });
    expect(records[0]!.crowdedAttempt).toBeUndefined();
    expect(replayed).toEqual([1]);
    expect(plays.at(-1)).toEqual({ index: 1, alongside: 0 });
  });

  test('an INCONCLUSIVE alone stays INCONCLUSIVE, and a sequential batch never replays', async () => {
    let calls = 0;
    const play = async () => {
      calls++;
      return record('INCONCLUSIVE', 'the fault did not land');
    };
    expect((await runBatch([0, 1], { jobs: 2 }, play)).map((r) => r.verdict)).toEqual(['INCONCLUSIVE', 'INCONCLUSIVE']);
    expect(calls).toBe(4);
    calls = 0;
    expect((await runBatch([0, 1], { jobs: 1 }, play)).map((r) => r.verdict)).toEqual(['INCONCLUSIVE', 'INCONCLUSIVE']);
    expect(calls).toBe(2);
  });

  test('a crowded run the caller says needs no replay stands as it came', async () => {
    let calls = 0;
    const play = async (_: number, index: number) => {
      calls++;
      return {
        ...record(index === 0 ? 'ERROR' : 'INCONCLUSIVE', 'past its deadline'),
        stoppedBy: 'deadline',
      } as EvidenceRecord;
    };
    const records = await runBatch([0, 1], { jobs: 2, noReplay: (index) => index === 0 }, play);
    expect(records.map((r) => r.crowdedAttempt === undefined)).toEqual([true, false]);
    expect(calls).toBe(3);
  });

  test('a run that missed its deadline among parallel runs is played again alone; any other ERROR stands', async () => {
    const seen: number[] = [];
    const records = await runBatch([0, 1, 2], { jobs: 2 }, async (_, index) => {
      seen.push(index);
      const first = seen.filter((i) => i === index).length === 1;
      if (index === 0 && first)
        return {
          ...record('ERROR', 'the run did not finish within its deadline'),
          stoppedBy: 'deadline',
        } as EvidenceRecord;
      if (index === 1) return record('ERROR', 'the target threw');
      return record('PASS', `run ${index}`);
    });
    expect(records.map((r) => r.verdict)).toEqual(['PASS', 'ERROR', 'PASS']);
    expect(records[0]!.crowdedAttempt).toEqual({
      verdict: 'ERROR',
      explanation: 'the run did not finish within its deadline',
      jobs: 2,
    });
    expect(seen.filter((i) => i === 1)).toHaveLength(1);
  });
});

describe('the reference matrix order', () => {
  const entries = referenceMatrix([V313, V319]);
  const key = (index: number) => `${entries[index]!.oracle.id} ${entries[index]!.name}`;

  test('untimed entries go first, by deadline (V319 grows a minute a simulated day), then timed ones longest first', () => {
    const walls = new Map(entries.map((_, i) => [key(i), 1000 + i] as const));
    const v319TwoDays = entries.findIndex(
      (e) => e.oracle.id === 'V319' && String(e.reference.params?.days).includes(','),
    );
    const v313 = entries.findIndex((e) => e.oracle.id === 'V313');
    walls.delete(key(v319TwoDays));
    walls.delete(key(v313));
    const order = longestFirst(entries, walls);
    expect([...order].sort((a, b) => a - b)).toEqual(entries.map((_, i) => i));
    expect(order.slice(0, 2)).toEqual([v319TwoDays, v313]);
    const timed = order.slice(2).map((i) => walls.get(key(i))!);
    expect(timed).toEqual([...timed].sort((a, b) => b - a));
  });

  test('walls are remembered across runs, merged with what earlier runs left', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-oracles-walls-test-'));
    try {
      const file = join(dir, 'walls.json');
      expect(knownWalls(file).size).toBe(0);
      rememberWalls([{ entry: entries[0]!, wallMs: 1234.4 }], file);
      rememberWalls([{ entry: entries[1]!, wallMs: 99 }], file);
      expect(knownWalls(file)).toEqual(
        new Map([
          [key(0), 1234],
          [key(1), 99],
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a reference run is checked', () => {
  const good = {
    verdict: 'FAIL',
    explanation: "A deleted B's lock",
    preconditions: [{ name: 'A held the lock', held: true, detail: '' }],
    faults: [{ kind: 'pause' }],
    store: { kind: 'redis', version: '7.0.15' },
    property: { offending: [{ seq: 1 }] },
  } as unknown as EvidenceRecord;
  test('a right FAIL with its evidence has no problem', () => {
    expect(checkReference({ target: 't', expect: 'FAIL' }, 'redis', good)).toEqual([]);
  });
  test('a run on another store than the entry names is wrong', () => {
    expect(checkReference({ target: 't', expect: 'FAIL' }, 'valkey', good)).toEqual(['ran on redis, not on valkey']);
  });
  test('a wrong verdict, an unmet precondition, no fault, no server version, a FAIL without offending events are each named', () => {
    expect(checkReference({ target: 't', expect: 'PASS' }, 'redis', good)).toEqual([
      expect.stringMatching(/^verdict FAIL, expected PASS/),
    ]);
    const bare = {
      ...good,
      preconditions: [{ name: 'B acquired', held: false, detail: 'never' }],
      faults: [],
      store: null,
      property: { offending: [] },
    } as unknown as EvidenceRecord;
    expect(checkReference({ target: 't', expect: 'FAIL' }, 'redis', bare)).toEqual([
      'preconditions not held: B acquired (never)',
      'no fault was recorded',
      'the evidence does not name the server version',
      'a FAIL without offending events',
    ]);
  });
});

describe('topology faults as explored points', () => {
  const at = (kind: Boundary['kind'], name: string, onKey?: boolean): Boundary => ({
    part: 'job',
    index: 1,
    kind,
    name,
    nth: 1,
    text: name,
    ...(onKey === undefined ? {} : { onKey }),
  });

  test('a failover lands on a master with replicas, at commands and writes, never on one server or Redlock', () => {
    expect(topologyFaultsAt(['failover'], 'replicated', at('command', 'SET', true))).toEqual(['failover']);
    expect(topologyFaultsAt(['failover'], 'sentinel', at('effect', 'write'))).toEqual(['failover']);
    expect(topologyFaultsAt(['failover'], 'redlock', at('command', 'SET', true))).toEqual([]);
    expect(topologyFaultsAt(['failover'], 'single', at('command', 'SET', true))).toEqual([]);
    expect(topologyFaultsAt([], 'replicated', at('command', 'SET', true))).toEqual([]);
    expect(isTopologyFault('failover')).toBe(true);
    expect(isTopologyFault('pause')).toBe(false);
  });

  test("Redlock's faults land on redlock:N at A's writes only: a master's restart or clock step (the topology's flow), A's pause (its own stop)", () => {
    const redlock = ['node-restart', 'master-clock-ahead', 'pause'] as const;
    // Smallest first: A's own pause, then a master's clock step, then its restart.
    const smallestFirst = ['pause', 'master-clock-ahead', 'node-restart'];
    expect(topologyFaultsAt(redlock, 'redlock', at('effect', 'write'))).toEqual(smallestFirst);
    expect(topologyFaultsAt(redlock, 'redlock', at('command', 'EVALSHA', true))).toEqual([]);
    expect(topologyFaultsAt(redlock, 'replicated', at('effect', 'write'))).toEqual([]);
    expect(topologyFaultsAt(['failover', ...redlock], 'redlock', at('effect', 'write'))).toEqual(smallestFirst);
    expect(isTopologyFault('node-restart')).toBe(true);
    expect(isTopologyFault('master-clock-ahead')).toBe(true);
  });

  test("a pause inside Redlock's acquire lands at A's first command on the lock key only (one point for every master's request), played by the topology's flow", () => {
    const acquire = (keyNth: number): Boundary => ({ ...at('command', 'EVALSHA', true), index: keyNth, keyNth });
    expect(topologyFaultsAt(['pause-in-acquire'], 'redlock', acquire(1))).toEqual(['pause-in-acquire']);
    expect(topologyFaultsAt(['pause-in-acquire'], 'redlock', acquire(2))).toEqual([]);
    expect(topologyFaultsAt(['pause-in-acquire'], 'redlock', at('effect', 'write'))).toEqual([]);
    expect(topologyFaultsAt(['pause-in-acquire'], 'replicated', acquire(1))).toEqual([]);
    expect(topologyFaultsAt(['failover', 'node-restart', 'pause'], 'redlock', acquire(1))).toEqual([]);
    expect(isTopologyFault('pause-in-acquire')).toBe(true);
  });

  test("a failover's boundaries: commands on the lock key, writes, and WAIT (whose reply decides whether A acts)", () => {
    const trace = [
      at('command', 'SET', true),
      at('command', 'WAIT', false),
      at('command', 'CLIENT', false),
      at('effect', 'write'),
    ];
    expect(topologyBoundaries(['failover'], trace).map((b) => b.name)).toEqual(['SET', 'WAIT', 'write']);
    expect(topologyBoundaries([], trace).map((b) => b.name)).toEqual(['SET', 'write']);
  });
});
