/**
 * --topology etcd:3 and zookeeper:3 on real members (Debian's etcd 3.4.23, ZooKeeper 3.8 JVMs):
 * each starts three loopback members with one leader and leaves no process or data dir after
 * stop; etcd's leader moved restarts a lease at its full TTL (3.4 without lease checkpointing);
 * and one real V313 run per member fault, its verdict and its evidence: the unfenced etcd3 Lock
 * FAILs and its fenced twin PASSes when A's member is paused, FAILs when it is killed; the leader
 * killed FAILs only where the leader was A's member (else nothing is proven); the timeline draws a
 * lane per member (or per Redlock master) with the paused member hatched; member-partitioned cuts
 * m1 off (no leader, or not serving, by its own word) with no member reaching another past the
 * harness's relays (ss), and m1 rejoins once healed.
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Boundary } from '../src/core/fault.ts';
import { startStore } from '../src/families/start-store.ts';
import { topologyFaultsAt } from '../src/faults/registry.ts';
import { loadOracle } from '../src/run/registry.ts';
import { EtcdGateway } from '../src/families/etcd/gateway.ts';
import { serverMode } from '../src/families/zookeeper/four-letter.ts';
import { awaitLeader, type MemberCluster } from '../src/stores/topology-members.ts';
import { parseTopology } from '../src/stores/topology.ts';
import type { EvidenceRecord } from '../src/report/evidence.ts';
import { taggedCli } from './tagged-cli.ts';

const { cli, leftovers } = taggedCli({ timeout: 180_000 });

/**
 * The pid and command line of the local process listening on `port` (a member's client port): found
 * by its socket, not by a command-line pattern, which other runs' members on this machine match too.
 */
async function processOn(port: number): Promise<{ pid: number; line: string }> {
  const { stdout } = await execa('ss', ['-tlnpH', 'sport', '=', `:${port}`], { reject: false });
  const pid = Number(/pid=(\d+),/.exec(stdout)?.[1] ?? 0);
  const line = pid > 0 ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') : '';
  return { pid, line };
}

/** Established TCP connections of the member processes `pids`: each with its owner and whether it goes straight to another member's listening port (past the relays). */
async function memberConnections(pids: number[]): Promise<Array<{ pid: number; straight: boolean; line: string }>> {
  const lines = async (args: string[]) => (await execa('ss', args)).stdout.split('\n');
  const ownerOf = (line: string) => pids.find((pid) => line.includes(`pid=${pid},`));
  const listeners = new Map<string, number>();
  for (const line of await lines(['-tlnpH'])) {
    const pid = ownerOf(line);
    if (pid !== undefined) listeners.set(line.trim().split(/\s+/)[3]!.split(':').pop()!, pid);
  }
  return (await lines(['-tnpH', 'state', 'established'])).flatMap((line) => {
    const pid = ownerOf(line);
    if (pid === undefined) return [];
    const peer = listeners.get(line.trim().split(/\s+/)[3]!.split(':').pop()!);
    return [{ pid, straight: peer !== undefined && peer !== pid, line }];
  });
}

/** What m1 says of its cluster by its own word: "leads", "follows" or why it does neither (etcd: its status; ZooKeeper: srvr). */
async function m1Says(kind: 'etcd' | 'zookeeper', cluster: MemberCluster): Promise<string> {
  const m1 = cluster.members[0]!;
  if (kind === 'zookeeper') return serverMode(m1.port).catch((error: Error) => `not serving: ${error.message}`);
  const status = await new EtcdGateway(m1.url, 1500).status().catch(() => undefined);
  if (!status) return 'no answer';
  return status.leader === '0' ? 'no leader' : status.leader === status.member ? 'leader' : 'follower';
}

/** What m1 says once it says something matching `wanted`, or what it last said when `ms` passed. */
async function m1SaysWithin(
  kind: 'etcd' | 'zookeeper',
  cluster: MemberCluster,
  wanted: RegExp,
  ms: number,
): Promise<string> {
  const until = performance.now() + ms;
  let says = await m1Says(kind, cluster);
  while (!wanted.test(says) && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    says = await m1Says(kind, cluster);
  }
  return says;
}

/**
 * Cut m1 off: no member reaches another past the relays, m1 has no leader (etcd) or serves
 * nothing (ZooKeeper) while m2 and m3 lead on; healed, m1 follows or leads again.
 */
async function partitionM1(kind: 'etcd' | 'zookeeper'): Promise<void> {
  const store = await startStore({ kind, topology: parseTopology(`${kind}:3`) }, 'local');
  try {
    const cluster = store.members!;
    const pids = (await Promise.all(cluster.members.map((m) => processOn(m.port)))).map((p) => p.pid);
    const inCluster = /^(leader|follower)$/;
    expect(await m1SaysWithin(kind, cluster, inCluster, 20_000), 'm1 in the cluster before the cut').toMatch(inCluster);
    expect(await cluster.partition!('m1'), 'peer connections reset').toBeGreaterThan(0);
    expect(cluster.members[0]!.cutOff).toBe(true);
    // m2 and m3 keep (or elect) a leader; m1, its clients still reaching it, has none.
    expect(['m2', 'm3']).toContain(await awaitLeader(() => cluster.leader(), undefined, 20_000));
    const cutOff = /^(no leader|not serving)/;
    expect(await m1SaysWithin(kind, cluster, cutOff, 20_000), 'm1 cut off').toMatch(cutOff);
    const straight = (await memberConnections(pids)).filter((c) => c.straight);
    expect(
      straight.map((c) => c.line),
      'no member reaches another past the relays',
    ).toEqual([]);
    cluster.heal!('m1');
    expect(await m1SaysWithin(kind, cluster, inCluster, 60_000), 'm1 back after the heal').toMatch(inCluster);
  } finally {
    await store.stop();
  }
}

async function runV313(args: string[]): Promise<{ verdict: string; record: EvidenceRecord; svg: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'member-topology-'));
  const result = await cli(['V313', ...args, '--report-dir', dir]);
  const [runDir] = readdirSync(dir);
  expect(runDir, result.stderr).toBeDefined();
  const record = JSON.parse(readFileSync(join(dir, runDir!, 'evidence.json'), 'utf8')) as EvidenceRecord;
  return { verdict: record.verdict, record, svg: readFileSync(join(dir, runDir!, 'timeline.svg'), 'utf8') };
}

describe('--topology parsing', () => {
  it('takes etcd[:N] and zookeeper[:N] (odd, 1 to 7; default 3) and refuses an even count', () => {
    expect(parseTopology('etcd:3')).toEqual({ kind: 'etcd', replicas: 0, masters: 0, members: 3 });
    expect(parseTopology('zookeeper')).toEqual({ kind: 'zookeeper', replicas: 0, masters: 0, members: 3 });
    expect(() => parseTopology('etcd:4')).toThrow(/odd number of members/);
  });

  it("V313 --explore on etcd:N and zookeeper:N puts A's member paused and cut off at each write, and neither on Redis topologies", async () => {
    const faults = (await loadOracle('V313')).explore!.topology!.faults;
    const write: Boundary = { part: 'job', index: 2, kind: 'effect', name: 'write', nth: 1, text: 'write' };
    for (const kind of ['etcd', 'zookeeper'])
      expect(topologyFaultsAt(faults, kind, write)).toEqual(['member-paused', 'member-partitioned']);
    expect(topologyFaultsAt(faults, 'replicated', write)).not.toContain('member-partitioned');
  });
});

describe('--topology etcd:3', { timeout: 300_000 }, () => {
  it('starts three members with one leader, each its own process and data dir, and leaves none after stop', async () => {
    const store = await startStore({ kind: 'etcd', topology: parseTopology('etcd:3') }, 'local');
    const cluster = store.members!;
    expect(cluster.members.map((m) => m.name)).toEqual(['m1', 'm2', 'm3']);
    expect(cluster.urls[0]).toBe(store.url);
    expect(cluster.members.map((m) => m.name)).toContain(await cluster.leader());
    const procs = await Promise.all(cluster.members.map((m) => processOn(m.port)));
    const dataDirs = procs.map((p) => /--data-dir=(\S+)/.exec(p.line)?.[1] ?? '');
    expect(new Set(dataDirs).size, 'a data dir each').toBe(3);
    for (const dir of dataDirs) expect(existsSync(dir), dir).toBe(true);
    await store.stop();
    for (const { pid } of procs) expect(existsSync(`/proc/${pid}`), `member pid ${pid}`).toBe(false);
    for (const dir of dataDirs) expect(existsSync(dir), `${dir} went with the run dir`).toBe(false);
  });

  it('leader moved: etcd 3.4.23 restarts a lease at its full TTL on the new leader', async () => {
    const store = await startStore({ kind: 'etcd', topology: parseTopology('etcd:3') }, 'local');
    try {
      const post = async (path: string, body: unknown) =>
        (await (await fetch(`${store.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json()) as {
          ID?: string;
          TTL?: string;
        };
      const { ID } = await post('/v3/lease/grant', { TTL: 10 });
      // Let the lease run down well past a whole second (etcd reports whole seconds, rounded down).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const before = Number((await post('/v3/lease/timetolive', { ID })).TTL);
      const change = await store.members!.changeLeader(15_000, () => performance.now());
      const after = Number((await post('/v3/lease/timetolive', { ID })).TTL);
      expect(change.to, change.how).toBeDefined();
      expect(change.to).not.toBe(change.from);
      expect(before).toBeLessThanOrEqual(7);
      expect(after, `TTL ${before} s before the leader change, ${after} s after`).toBeGreaterThanOrEqual(9);
    } finally {
      await store.stop();
    }
  });

  it('member-partitioned: every peer link through the relays, m1 cut off both ways while the others lead on, then healed', async () => {
    await partitionM1('etcd');
  });

  it("member-paused on the unfenced etcd3 Lock: FAIL, A's member hatched on its lane; the fenced twin PASSes", async () => {
    const common = ['--store', 'etcd', '--topology', 'etcd:3', '--ttl', '2000', '--fault', 'member-paused'];
    const bad = await runV313([...common, '--target', 'targets/etcd/lock-job.ts']);
    expect(bad.verdict).toBe('FAIL');
    const paused = bad.record.faults.find((f) => f.action === 'SIGSTOP etcd:3 m1');
    expect(paused, JSON.stringify(bad.record.faults)).toBeDefined();
    expect(bad.record.store?.topology?.name).toBe('etcd:3');
    // Every read after the pause and before the lift shows m1 paused, and the others holding a key.
    const during = bad.record.history.filter(
      (e) => e.kind === 'store-observed' && e.t > paused!.appliedAt && e.t < (paused!.liftedAt ?? Infinity),
    );
    expect(during.length).toBeGreaterThan(0);
    for (const read of during) {
      const members = read.detail.members as Array<{ member: string; role: string }>;
      expect(members.find((m) => m.member === 'm1')?.role).toBe('paused');
    }
    for (const lane of ['m1', 'm2', 'm3']) expect(bad.svg).toContain(`class="lane">${lane}<title>`);
    expect(bad.svg).toMatch(/class="pause"[^>]*><title>m1 \(paused\)/);
    const good = await runV313([...common, '--target', 'targets/etcd/lock-job-fenced.ts']);
    expect(good.verdict).toBe('PASS');
    expect(leftovers()).toEqual([]);
  });

  it("member-killed on the unfenced etcd3 Lock: FAIL (A's member m1 killed, its keepalives reach nobody, B takes the lock on m2)", async () => {
    const { verdict, record } = await runV313([
      ...['--store', 'etcd', '--topology', 'etcd:3', '--ttl', '2000', '--fault', 'member-killed'],
      ...['--target', 'targets/etcd/lock-job.ts'],
    ]);
    expect(verdict).toBe('FAIL');
    expect(record.faults.map((f) => f.action)).toContain('SIGKILL etcd:3 m1');
    expect(leftovers()).toEqual([]);
  });

  it("leader-killed on the unfenced etcd3 Lock: the member that led is read as killed after; FAIL only where it was A's member", async () => {
    const { verdict, record } = await runV313([
      ...['--store', 'etcd', '--topology', 'etcd:3', '--ttl', '2000', '--fault', 'leader-killed'],
      ...['--target', 'targets/etcd/lock-job.ts'],
    ]);
    const killed = record.faults.find((f) => /^SIGKILL etcd:3 m\d$/.test(f.action));
    expect(killed?.detail.chosenAs).toBe('leader');
    const member = String(killed!.detail.member);
    // The reads after the kill show that member killed (the others may still name it their leader a while).
    const after = record.history
      .filter((e) => e.kind === 'store-observed' && e.t > killed!.appliedAt)
      .map((e) => e.detail.members as Array<{ member: string; role: string }>);
    expect(after.length).toBeGreaterThan(0);
    for (const roles of after) expect(roles.find((m) => m.member === member)?.role).toBe('killed');
    // Which member the election made leader decides what the kill does to A: only A's own (m1)
    // cuts its keepalives off; another's leaves A renewing through m1 (its lease never lapses) or
    // B with no member (it never takes the lock): nothing proven, never a PASS or a FAIL.
    expect(verdict).toBe(member === 'm1' ? 'FAIL' : 'INCONCLUSIVE');
    expect(leftovers()).toEqual([]);
  });
});

describe('--topology zookeeper:3', { timeout: 300_000 }, () => {
  it('starts an ensemble of three JVMs with one leader, and leaves none after stop', async () => {
    const store = await startStore({ kind: 'zookeeper', topology: parseTopology('zookeeper:3') }, 'local');
    const cluster = store.members!;
    expect(cluster.members.map((m) => m.name)).toEqual(['m1', 'm2', 'm3']);
    expect(cluster.members.map((m) => m.name)).toContain(await cluster.leader());
    const procs = await Promise.all(cluster.members.map((m) => processOn(m.port)));
    for (const { pid, line } of procs) expect(pid, line).toBeGreaterThan(0);
    const cfg = /(\S+\/zoo\.cfg)/.exec(procs[0]!.line)![1]!;
    expect(readFileSync(cfg, 'utf8')).toMatch(/^server\.3=127\.0\.0\.1:\d+:\d+$/m);
    await store.stop();
    for (const { pid } of procs) expect(existsSync(`/proc/${pid}`), `member pid ${pid}`).toBe(false);
    expect(existsSync(cfg), `${cfg} went with the run dir`).toBe(false);
  });

  it("member-partitioned: every quorum and election link through the relays (an election hello names the dialer's relay), m1 cut off both ways, then healed", async () => {
    await partitionM1('zookeeper');
  });

  it("member-paused on the unfenced recipe: FAIL (A's session ends while its server is stopped); the fenced twin PASSes", async () => {
    // A 1 s session: the harness's reads of B's session (its end from the servers' cons) stay inside it under load.
    const common = ['--store', 'zookeeper', '--topology', 'zookeeper:3', '--ttl', '1000', '--fault', 'member-paused'];
    const bad = await runV313([...common, '--target', 'targets/zookeeper/recipe-job.ts']);
    expect(bad.verdict).toBe('FAIL');
    const good = await runV313([...common, '--target', 'targets/zookeeper/recipe-job-fenced.ts']);
    expect(good.verdict).toBe('PASS');
    expect(leftovers()).toEqual([]);
  });
});

describe('the timeline on redlock:5', { timeout: 300_000 }, () => {
  it("draws a lane per master, with what each master held between the harness's reads", async () => {
    const { record, svg } = await runV313([
      ...['--topology', 'redlock:5', '--variant', 'pause-in-acquire'],
      ...['--target', 'targets/redis/redlock-quorum/redlock-acquire-checked.ts'],
    ]);
    for (const lane of ['m1', 'm2', 'm3', 'm4', 'm5']) expect(svg).toContain(`class="lane">${lane}<title>`);
    // From the evidence alone: every (read, master) pair where the master held a key gets one span, titled with its value.
    const reads = record.history.filter((e) => e.kind === 'store-observed' && Array.isArray(e.detail.nodes));
    expect(reads.length).toBeGreaterThan(1);
    const held = reads.flatMap((e) =>
      (e.detail.nodes as Array<{ node: string; exists: boolean; value: string | null }>).filter((n) => n.exists),
    );
    expect(held.length).toBeGreaterThan(0);
    const spans = [...svg.matchAll(/class="member"[^>]*><title>(m\d) \(\w+\) [\d.]+–[\d.]+ ms: holds ([^<]*)'s lock/g)];
    expect(spans.length).toBe(held.length);
    // Two holders' keys over the run (A's, then B's once A's lapsed): two owners, two colours.
    const values = new Set(held.map((n) => n.value));
    expect(values.size).toBeGreaterThanOrEqual(2);
    const colours = new Set([...svg.matchAll(/class="member" style="fill:(#[0-9a-f]+)"/g)].map((m) => m[1]));
    expect(colours.size).toBe(values.size);
  });
});
