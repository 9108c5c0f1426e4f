/**
 * V313 --explore on a cluster of the target's own nodes (--store cluster): A's lock path is traced as
 * the messages on the links to and from A's node, and every one of them becomes a point — held on
 * its link, and A's node SIGSTOPped as it arrives — beside A's writes. The good reference
 * (anchor-at-send) PASSes every point, and the explored runs' evidence keeps the design's message
 * counts: a cold lock two unicast messages, a repeat lock under the live delegation none. (The bad
 * twins FAIL in test/explored/explore-V313.test.ts, with every explored reference.) V317 --explore there
 * steps one node's wall clock while a message of A's lock is held: the remote-wall twin FAILs with
 * no variant parameter (its good twin PASSes every point in test/explored/explore-V317.test.ts). Real node
 * processes.
 */
import { describe, expect, test } from 'vitest';
import { explore } from '../src/explore/explore.ts';
import { boundaryLabel } from '../src/oracle/explore-point.ts';
import { FAULT_WORDS } from '../src/faults/registry.ts';
import { CLUSTER_STEP_LANDED } from '../oracles/V317/cluster-judge.ts';

// As V313's explored cluster references: a repeat lock at the 2nd write, a renewal at the 3rd.
const PARAMS = { ttl: 800, stepMs: 300 };

describe('V313 --explore on a cluster store', () => {
  test("every message on A's lock path is a point, named by its link, place and type; the good twin PASSes them all and keeps the message counts", async () => {
    const { record } = await explore({
      oracle: 'V313',
      target: 'targets/cluster/anchor-at-send.ts',
      store: 'cluster',
      params: PARAMS,
      jobs: 2,
    });
    const x = record.exploration!;
    const why = `${record.explanation}\n${x.points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n')}`;
    // A's renewal at its 3rd write: its node's request to the key's home, and the home's grant back.
    const messages = x.trace.filter((b) => b.part === 'job' && b.kind === 'message');
    expect(
      messages.map((b) => b.name),
      why,
    ).toEqual(['request', 'grant']);
    const [request, grant] = messages;
    expect(request!.text).toMatch(new RegExp(`^${request!.link!.aNode}→n\\d #1 request `));
    expect(grant!.text).toMatch(new RegExp(`^n\\d→${grant!.link!.aNode} #1 grant token `));
    for (const boundary of messages)
      expect(
        x.points.filter((p) => p.boundary.index === boundary.index).map((p) => p.fault),
        why,
      ).toEqual(['hold-message', 'pause-node']);
    expect(x.points.map((p) => p.label)).toContain(
      `job#${grant!.index} ${grant!.text}, held on its link [contender hold]`,
    );
    expect(record.verdict, why).toBe('PASS');
    // The shown run (the first point's): B alone first, then A. Each one's first write is a cold lock
    // (B's: two unicast messages, a request and a grant); every later one is a repeat lock under the
    // live delegation (none) or, on a loaded machine, a renewal (a request and a grant again).
    const costs = (holder: string) =>
      record.history
        .filter((e) => e.holder === holder && e.detail.lockCost)
        .map((e) => e.detail.lockCost as { messages: number; perLink: Record<string, number> });
    const b = costs('B');
    expect(b[0]!.messages, "B's cold lock").toBe(2);
    expect(Object.values(b[0]!.perLink)).toEqual([1, 1]);
    const later = [...b.slice(1, 3), ...costs('A').slice(1, 2)].map((c) => c.messages);
    expect(
      later.every((n) => n === 0 || n === 2),
      `later writes cost ${later.join(', ')}`,
    ).toBe(true);
    expect(later, 'a repeat lock under the live delegation costs no message').toContain(0);
  });

  test("V317: each message of A's first lock × the home's or A's node's wall clock stepped ahead or back; the remote-wall twin FAILs, the step landed", async () => {
    const { record, schedule } = await explore({
      oracle: 'V317',
      target: 'targets/cluster/clock-remote-wall.ts',
      store: 'cluster',
      jobs: 2,
      firstFail: true,
    });
    const x = record.exploration!;
    const why = `${record.explanation}\n${x.points.map((p) => `${p.label}: ${p.verdict} — ${p.reason}`).join('\n')}`;
    const messages = x.trace.filter((b) => b.part === 'acquire' && b.kind === 'message');
    expect(
      messages.map((b) => b.name),
      why,
    ).toEqual(['request', 'grant']);
    // Every message × both directions × both nodes is a point, run or (after the first FAIL) not started.
    const planned = messages.flatMap((b) =>
      (['node-clock-ahead', 'node-clock-back'] as const).flatMap((fault) =>
        ['home', 'a-node'].map((node) => `${boundaryLabel(b)}, ${FAULT_WORDS[fault]} [steppedNode ${node}]`),
      ),
    );
    expect([...x.points.map((p) => p.label), ...(x.notStarted ?? [])].sort(), why).toEqual([...planned].sort());
    expect(record.verdict, why).toBe('FAIL');
    expect(schedule?.fault).toMatch(/^node-clock-(ahead|back)$/);
    expect(record.preconditions.find((c) => c.name === CLUSTER_STEP_LANDED)?.held, why).toBe(true);
  });
});
