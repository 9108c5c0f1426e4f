/**
 * An etcd member served again after a run (src/families/store-reuse.ts): every lease revoked (its
 * keys go with it), every key deleted, and then verified through the member's JSON gateway and its
 * /metrics: no key, no lease, no watcher and no gRPC stream of the run still open (a holder's
 * keepalive or watch), and its users, roles, alarms and members as they were when it started.
 * Revisions keep growing from run to run (etcd never resets them): within a run they compare as
 * on a fresh member, but a run's first revision is not 1.
 */
import type { StartedStore } from '../../stores/types.ts';
import type { StoreReuse } from '../store-reuse.ts';
import { assertLoopbackUrl } from '../../stores/loopback.ts';
import { EtcdGateway } from './gateway.ts';

/** Longest the run's streams take to be gone once its holders ended. */
const STREAMS_GONE_MS = 1000;
/** Every key: etcd's range from "\0" to "\0" (base64 AA==). */
const EVERY_KEY = { key: 'AA==', range_end: 'AA==' };

export const etcdReuse: StoreReuse = {
  kinds: ['etcd'],
  // idle ~19 CPU ms a second (its 10 ms raft tick) against ~120 CPU ms a start.
  keepIdleMs: 5_000,
  verifies: 'no key, lease, watcher or stream of a client left, its users, roles, alarms and members as it started',
  baseline: (store) => settingsOf(new Member(store)),
  async reset(store, baseline) {
    const member = new Member(store);
    const { leases } = await member.request<{ leases?: Array<{ ID: string }> }>('/v3/lease/leases', {});
    for (const { ID } of leases ?? []) await member.request('/v3/lease/revoke', { ID });
    await member.request('/v3/kv/deleterange', EVERY_KEY);
    return notAsFound(member, baseline);
  },
};

/** What is not as the member was found, or undefined. */
async function notAsFound(member: Member, baseline: string): Promise<string | undefined> {
  const streams = await streamsLeft(member);
  if (streams) return `${streams} of the run's clients still open after its holders ended`;
  const { count } = await member.request<{ count?: string }>('/v3/kv/range', { ...EVERY_KEY, count_only: true });
  if (Number(count ?? 0) > 0) return `${count} key(s) left after deleting every key`;
  const { leases } = await member.request<{ leases?: unknown[] }>('/v3/lease/leases', {});
  if (leases?.length) return `${leases.length} lease(s) left after revoking every lease`;
  if ((await settingsOf(member)) !== baseline) return 'its users, roles, alarms or members changed during the run';
  return undefined;
}

/** Watchers and open gRPC streams (watch, keepalive) by the member's metrics, waiting a moment for them to close. */
async function streamsLeft(member: Member): Promise<string | undefined> {
  const until = performance.now() + STREAMS_GONE_MS;
  for (;;) {
    const metrics = await member.metrics();
    const watchers = gauge(metrics, 'etcd_debugging_mvcc_watcher_total');
    const open = streamTotal(metrics, 'grpc_server_started_total') - streamTotal(metrics, 'grpc_server_handled_total');
    if ((watchers === 0 && open === 0) || performance.now() > until)
      return watchers === 0 && open === 0 ? undefined : `${watchers} watcher(s) and ${open} gRPC stream(s)`;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function gauge(metrics: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? 0);
}

/** The sum of a counter over its streaming RPCs (bidi and server streams: watches, keepalives, snapshots). */
function streamTotal(metrics: string, name: string): number {
  let total = 0;
  for (const match of metrics.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm')))
    if (/grpc_type="(bidi|server|client)_stream"/.test(match[1]!)) total += Number(match[2]);
  return total;
}

/** The member's users, roles, alarms and members (without the answers' headers, whose revision moves). */
async function settingsOf(member: Member): Promise<string> {
  const answers = await Promise.all(
    [
      ['/v3/auth/user/list', {}],
      ['/v3/auth/role/list', {}],
      ['/v3/maintenance/alarm', { action: 'GET' }],
      ['/v3/cluster/member/list', {}],
    ].map(([path, body]) => member.request<Record<string, unknown>>(path as string, body)),
  );
  return JSON.stringify(answers.map(({ header: _header, ...answer }) => answer));
}

/** The member's gateway (a loopback URL only) and its metrics: the reset's calls by name. */
class Member extends EtcdGateway {
  readonly #metricsUrl: string;

  constructor(store: StartedStore) {
    super(store.url);
    this.#metricsUrl = `http://${assertLoopbackUrl(store.url).host}/metrics`;
  }

  async metrics(): Promise<string> {
    const response = await fetch(this.#metricsUrl, { signal: AbortSignal.timeout(5000) });
    return response.text();
  }
}
