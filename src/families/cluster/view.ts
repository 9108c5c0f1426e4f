/**
 * The harness's own view of a lock in a cluster: every live node is asked what it knows of the key
 * (the target's `inspect` member, in the node's own process); the node that calls itself the key's
 * home answers for the store: its live grant's holder and token, and the time the grant has left by
 * that node's own monotonic clock (PTTL). Without an `inspect` member the lock cannot be read.
 */
import { keyOf } from '../../stores/store-location.ts';
import type { NodeReport } from '../../../targets/contract.ts';
import type { LockState, NodeInspector, StoreView } from '../family.ts';

export interface ClusterLockState extends LockState {
  /** The key's home, as the answering node computes it. */
  home: string | null;
  /** The node the home's live grant is to, or null. */
  holder: string | null;
  /** Every live node's report, for the evidence. */
  reports: Record<string, NodeReport>;
}

export function inspectedView(inspect: NodeInspector): StoreView {
  return {
    async lock(location): Promise<ClusterLockState> {
      const key = keyOf(location);
      const reports = await inspect(key);
      if (!reports) throw new Error("the target has no inspect member: a cluster's lock cannot be read");
      const all = Object.fromEntries(reports);
      const home = [...reports].find(([id, report]) => report.home === id);
      const where = home
        ? `inspect(${JSON.stringify(key)}) on ${home[0]}, its home`
        : `inspect(${JSON.stringify(key)}) on every live node (its home answered none)`;
      const report = home?.[1];
      if (!report?.holder)
        return { where, exists: false, value: null, pttlMs: -2, home: home?.[0] ?? null, holder: null, reports: all };
      const pttlMs = report.remainingMs === undefined ? -1 : Math.max(0, Math.floor(report.remainingMs));
      return {
        where,
        exists: true,
        value: report.token ?? null,
        pttlMs,
        home: home![0],
        holder: report.holder,
        reports: all,
      };
    },
    close: async () => undefined,
  };
}
