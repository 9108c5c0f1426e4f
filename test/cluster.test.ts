/**
 * The cluster store (src/families/cluster/, src/oracle/cluster-nodes.ts, src/wire/link-mesh.ts): the
 * target's own nodes as real processes, every node-to-node link through the harness. Each node fault
 * lands and shows in the evidence (a SIGKILL and a restart, a partition, a node's own wall or monotonic clock step);
 * a grant held on a link keeps a lock waiting, one delayed, duplicated or dropped shows its fate; a cold lock's and a repeat lock's message counts are
 * in the evidence; nothing is left behind after a SIGKILLed
 * harness. Real node processes running the reference cluster lock (targets/cluster/), no mocks.
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Judgement } from '../src/core/judgement.ts';
import { clusterLayout } from '../src/families/cluster/cluster-url.ts';
import { startStore } from '../src/families/start-store.ts';
import type { Scenario } from '../src/oracle/scenario.ts';
import { runOracle } from '../src/run/run-oracle.ts';

const TARGET = 'targets/cluster/anchor-at-send.ts';

/** A run of V313's store and holders on the cluster, playing `play` instead of the oracle's scenario. */
async function onCluster(play: (s: Scenario) => Promise<Record<string, number>>, target = TARGET) {
  const record = await runOracle({
    oracle: 'V313',
    target,
    store: 'cluster',
    // A 3 s delegation (the reference's lease is --ttl): a repeat lock has room, however loaded the machine.
    params: { ttl: 3000, timeout: 6000 },
    holders: ['A'],
    play: async (s): Promise<Judgement> => {
      const counts = await play(s);
      return {
        preconditions: [],
        counts,
        property: { name: 'played', held: true, detail: '', offending: [] },
        explanation: '',
      };
    },
  });
  expect(record.error, 'the run played to its end').toBeUndefined();
  return record;
}

describe('the cluster store', () => {
  test('is a run dir with a state directory per node and a loopback port each, removed by stop; no container', async () => {
    const store = await startStore({ kind: 'cluster' });
    const layout = clusterLayout(store.url);
    expect(layout.nodes.map((n) => n.id)).toEqual(['n1', 'n2', 'n3']);
    expect(new Set(layout.nodes.map((n) => n.port)).size).toBe(3);
    expect(layout.nodes.every((n) => n.host === '127.0.0.1')).toBe(true);
    expect(existsSync(layout.stateDir('n2'))).toBe(true);
    await store.stop();
    expect(existsSync(layout.stateDir('n2'))).toBe(false);
    await expect(startStore({ kind: 'cluster' }, 'container')).rejects.toThrow(/has no container/);
  });

  test('a cold lock costs two unicast messages and a repeat lock under the live delegation none, each in the evidence', async () => {
    const record = await onCluster(async (s) => {
      const a = await s.holder('A');
      expect((await a.call('job')).ok).toBe(true);
      return {};
    });
    const costs = record.history.filter((e) => e.detail.lockCost).map((e) => e.detail.lockCost as { messages: number });
    // The default job: three writes 20 ms apart, well inside the 3 s delegation.
    expect(costs.map((c) => c.messages)).toEqual([2, 0, 0]);
    const links = record.history
      .filter((e) => e.kind === 'link')
      .map((e) => `${String(e.detail.link)} ${String(e.detail.type)}`);
    expect(links).toEqual([expect.stringMatching(/^n\d→n\d request$/), expect.stringMatching(/^n\d→n\d grant$/)]);
  });

  test('a node killed (SIGKILL) and restarted: its old process exits by the signal, the new one answers, the restart is a fault', async () => {
    const record = await onCluster(async (s) => {
      const nodes = await s.nodes();
      const before = nodes.process('n2').pid;
      await nodes.kill('n2');
      await nodes.restart('n2');
      const reports = await nodes.inspect(s.key);
      expect(nodes.process('n2').pid).not.toBe(before);
      return { answered: reports?.has('n2') ? 1 : 0 };
    });
    expect(record.counts.answered).toBe(1);
    const exit = record.history.find((e) => e.kind === 'holder-exit' && e.holder === 'n2');
    expect(exit?.detail.signal).toBe('SIGKILL');
    expect(record.faults.map((f) => f.action)).toEqual(expect.arrayContaining(['SIGKILL', 'restart n2']));
    expect(record.history.some((e) => e.holder === 'n2#2' && e.kind === 'call-end')).toBe(true);
  });

  test("a partition drops every message across it until healed: A's lock through a cut-off node gets no answer, then one", async () => {
    const record = await onCluster(async (s) => {
      const nodes = await s.nodes();
      const a = await s.holder('A');
      const aNode = nodes.nodeOf('A').id;
      const partition = s.links!.partition(
        [aNode],
        nodes.ids.filter((id) => id !== aNode),
      );
      const cut = await s.within(a.call('job'), 600);
      partition.heal();
      const b = await s.holder('B');
      const healed = await b.call('job');
      return { answeredWhileCut: cut === undefined ? 0 : 1, healedOk: healed.ok ? 1 : 0 };
    });
    expect(record.counts).toMatchObject({ answeredWhileCut: 0, healedOk: 1 });
    const fates = record.history.filter((e) => e.kind === 'link').map((e) => e.detail.fate);
    expect(fates[0]).toBe('partitioned');
    expect(fates).toContain('forwarded');
    expect(record.faults.find((f) => f.action.startsWith('partition'))?.liftedAt).toBeDefined();
  });

  test("a node's wall and monotonic clocks are stepped on their own: read back inside each node, only the stepped one moved, each step a clock fault; a monotonic step back is refused", async () => {
    const record = await onCluster(async (s) => {
      const nodes = await s.nodes();
      const measureAll = () => Promise.all(nodes.ids.map((id) => nodes.clock(id).measure()));
      const before = await measureAll();
      expect(() => nodes.clock('n3').step({ monotonicMs: -1000 })).toThrow(/a monotonic clock never goes back/);
      nodes.clock('n1').step({ wallMs: 60_000 });
      nodes.clock('n2').step({ monotonicMs: 30_000 });
      const after = await measureAll();
      const counts: Record<string, number> = {};
      nodes.ids.forEach((id, i) => {
        // Each reading is within half its round trip of the truth; the step is what changed between the two.
        counts[`${id} wall moved`] = Math.round((after[i]!.wallMs - before[i]!.wallMs) / 1000) + 0;
        counts[`${id} monotonic moved`] = Math.round((after[i]!.monotonicMs - before[i]!.monotonicMs) / 1000) + 0;
      });
      return counts;
    });
    expect(record.counts).toMatchObject({
      'n1 wall moved': 60,
      'n1 monotonic moved': 0,
      'n2 wall moved': 0,
      'n2 monotonic moved': 30,
      'n3 wall moved': 0,
      'n3 monotonic moved': 0,
    });
    const steps = record.faults.filter((f) => f.kind === 'clock');
    expect(steps.map((f) => [f.holder, f.action])).toEqual([
      ['n1', 'n1 stepped: wall clock +60000 ms (now +60000)'],
      ['n2', 'n2 stepped: monotonic clock +30000 ms (now +30000)'],
    ]);
    expect(String(steps[0]!.detail.mechanism)).toMatch(/LD_PRELOAD clock-offset library/);
    const reads = record.history.filter((e) => e.kind === 'clock-step' && e.detail.op === 'read');
    expect(reads.map((e) => e.holder).sort()).toEqual(['n1', 'n1', 'n2', 'n2', 'n3', 'n3']);
    expect(reads.every((e) => typeof (e.detail.measured as { monotonicMs?: unknown }).monotonicMs === 'number')).toBe(
      true,
    );
  });

  test("over WebSocket frames: the upgrade and each frame are messages, a grant held on the link keeps A's lock waiting until released", async () => {
    const record = await onCluster(async (s) => {
      const nodes = await s.nodes();
      const a = await s.holder('A');
      const hold = s.links!.hold({ to: nodes.nodeOf('A').id, type: 'grant' });
      const job = a.call('job');
      const held = await s.within(hold.reached, 3000);
      const early = await s.within(job, 200);
      hold.release();
      const done = await job;
      return { held: held ? 1 : 0, finishedWhileHeld: early ? 1 : 0, ok: done.ok ? 1 : 0 };
    }, 'targets/cluster/anchor-at-send-websocket.ts');
    expect(record.counts).toMatchObject({ held: 1, finishedWhileHeld: 0, ok: 1 });
    const links = record.history.filter((e) => e.kind === 'link');
    expect(links.map((e) => [String(e.detail.type ?? ''), e.detail.fate])).toEqual([
      ['', 'forwarded'],
      ['', 'forwarded'],
      ['request', 'forwarded'],
      ['grant', 'held'],
    ]);
    expect(String(links[0]!.detail.text)).toBe('GET / HTTP/1.1');
    expect(String(links[1]!.detail.text)).toBe('HTTP/1.1 101 Switching Protocols');
  });

  test("a grant held on the link to A's node keeps A's lock waiting until it is released, then goes on", async () => {
    const record = await onCluster(async (s) => {
      const nodes = await s.nodes();
      const a = await s.holder('A');
      const hold = s.links!.hold({ to: nodes.nodeOf('A').id, type: 'grant' });
      const job = a.call('job');
      const held = await s.within(hold.reached, 3000);
      const early = await s.within(job, 200);
      hold.release();
      const done = await job;
      return { held: held ? 1 : 0, finishedWhileHeld: early ? 1 : 0, ok: done.ok ? 1 : 0 };
    });
    expect(record.counts).toMatchObject({ held: 1, finishedWhileHeld: 0, ok: 1 });
    expect(record.history.filter((e) => e.kind === 'link').map((e) => e.detail.fate)).toEqual(['forwarded', 'held']);
  });

  test.each([
    [
      'delayed 150 ms',
      'delayed',
      /^delay 150 ms the next grant to n\d$/,
      { answered: 1, ok: 1, tookAtLeastTheDelay: 1 },
    ],
    ['duplicated', 'duplicated', /^duplicate the next grant to n\d$/, { answered: 1, ok: 1, extraDelivered: 1 }],
    ['dropped', 'dropped', /^drop the next grant to n\d$/, { answered: 0 }],
  ] as const)(
    "a grant %s on the link to A's node: its fate is in the trace and the fault log",
    async (_, fate, action, expected) => {
      const record = await onCluster(async (s) => {
        const aNode = (await s.nodes()).nodeOf('A').id;
        const a = await s.holder('A');
        const match = { to: aNode, type: 'grant' };
        if (fate === 'delayed') s.links!.delay(match, 150);
        if (fate === 'duplicated') s.links!.duplicate(match);
        if (fate === 'dropped') s.links!.drop(match);
        const began = s.now();
        const job = await s.within(a.call('job'), 1000);
        const toA = s.links!.counts().find((count) => count.link.endsWith(`→${aNode}`))!;
        return {
          answered: job ? 1 : 0,
          ok: job?.ok ? 1 : 0,
          tookAtLeastTheDelay: job && job.endedAt - began >= 150 ? 1 : 0,
          extraDelivered: toA.delivered - toA.sent,
        };
      });
      expect(record.counts).toMatchObject(expected);
      const grants = record.history.filter((e) => e.kind === 'link' && e.detail.type === 'grant');
      expect(grants.map((e) => e.detail.fate)).toEqual([fate]);
      expect(record.faults.map((f) => f.action)).toEqual([expect.stringMatching(action)]);
    },
  );

  test('nothing is left behind after a SIGKILL of the harness: the nodes die with it, the next run reaps the run dir', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'leftovers-cluster-'));
    const env = { TMPDIR: tmp };
    const args = ['V313', '--target', TARGET, '--store', 'cluster', '--variant', 'renewal-wire', '--step-ms', '150'];
    const run = execa(
      'npx',
      ['tsx', 'src/cli/main.ts', ...args, '--timeout', '60000', '--no-report', '--report-dir', tmp],
      {
        reject: false,
        env,
        timeout: 90_000,
      },
    );
    let seen = '';
    await new Promise<void>((resolve, reject) => {
      run.stderr!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (/held the grant to its node on the link/.test(seen)) resolve();
      });
      void run.then(() => reject(new Error(`the run ended before A's grant was held:\n${seen}`)));
    });
    const { stdout } = await execa('pgrep', ['-f', `loader\\.mjs.*src/cli/main\\.ts V313 .*--report-dir ${tmp}`], {
      reject: false,
    });
    const harness = Number(stdout.trim().split('\n')[0]);
    expect(harness, `the harness process, found by its command line; it printed:\n${seen}`).toBeGreaterThan(0);
    const children = (await execa('pgrep', ['-P', String(harness)], { reject: false })).stdout
      .trim()
      .split('\n')
      .filter(Boolean);
    expect(
      children.length,
      `the harness runs its holder and node processes; it printed:\n${seen}`,
    ).toBeGreaterThanOrEqual(5);
    process.kill(harness, 'SIGKILL');
    await run;
    const alive = async () =>
      (await Promise.all(children.map((pid) => execa('kill', ['-0', pid], { reject: false })))).filter(
        (r) => r.exitCode === 0,
      ).length;
    await expect
      .poll(alive, { timeout: 10_000, message: `the harness's children ${children.join(', ')} died with it` })
      .toBe(0);
    const left = readdirSync(tmp).filter((f) => f.startsWith('lock-oracles-cluster-'));
    expect(left.length, `the killed run left its run dir (found: ${readdirSync(tmp).join(', ')})`).toBe(1);
    const clean = await execa('npx', ['tsx', 'src/cli/main.ts', 'clean', '--json'], { reject: false, env });
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(readdirSync(tmp).filter((f) => f.startsWith('lock-oracles-cluster-'))).toEqual([]);
  });
});

describe('a node port another process took first', () => {
  test('the run is ERROR naming the port race, not a usage error blaming the target', async () => {
    const record = await runOracle({
      oracle: 'V313',
      target: 'test/fixtures/targets/cluster/node-port-taken.ts',
      store: 'cluster',
      params: { variant: 'renewal-wire', stepMs: 150 },
    });
    expect(record.verdict).toBe('ERROR');
    expect(record.explanation).toMatch(
      /could not listen on 127\.0\.0\.1:\d+, the port the harness picked for it: another process took it first/,
    );
    expect(record.explanation).toMatch(/EADDRINUSE/);
  });
});
