/**
 * A scenario's view of its Postgres store: one harness probe per run (on the Postgres itself, or
 * the one behind PgBouncer), closed with the run, and observations recorded in the history.
 */
import type { StartedStore } from '../src/stores/types.ts';
import { PgProbe, type AdvisoryLock, type ClientSession } from './pg-probe.ts';
import type { ObservedKey, Scenario } from '../src/oracle/scenario.ts';
import { describeLocation } from '../src/stores/store-location.ts';
import type { LeaseRow } from '../targets/contract.ts';

const probes = new WeakMap<Scenario, Promise<PgProbe>>();

/** The URL of the Postgres server itself: the store, or the one behind a PgBouncer store. */
export function postgresUrl(store: StartedStore): string {
  const postgres = store.kind === 'pgbouncer' ? store.backend : store;
  if (postgres?.kind !== 'postgres') {
    throw new Error(
      `this scenario inspects Postgres (pg_locks), but the store is ${store.kind}: run it with --store postgres or pgbouncer`,
    );
  }
  return postgres.url;
}

/** The run's probe, opened on first use. */
export function pgProbe(s: Scenario): Promise<PgProbe> {
  let probe = probes.get(s);
  if (!probe) {
    const opened = PgProbe.open(postgresUrl(s.store));
    probe = opened;
    probes.set(s, opened);
    s.onClose(async () => (await opened).close());
  }
  return probe;
}

/** Every advisory lock in the cluster, recorded in the history under `label`. */
export async function observeAdvisoryLocks(s: Scenario, label: string): Promise<AdvisoryLock[]> {
  const locks = await (await pgProbe(s)).advisoryLocks();
  s.history.add('store-observed', undefined, { label, advisoryLocks: locks });
  return locks;
}

/** Every client session but the harness's own, recorded in the history under `label`. */
export async function observeSessions(s: Scenario, label: string): Promise<ClientSession[]> {
  const sessions = await (await pgProbe(s)).clientSessions();
  s.history.add('store-observed', undefined, { label, sessions });
  return sessions;
}

/**
 * A lease row's state, read against the database's clock and recorded in the history under
 * `label`: like Scenario.observeKey on Redis, `liveUntil` is the harness instant before which the
 * lease surely still lives (sent at + what it had left).
 */
export async function observeLeaseRow(s: Scenario, label: string, row: LeaseRow): Promise<ObservedKey> {
  const sentAt = s.now();
  const leftMs = await (await pgProbe(s)).leaseLeftMs(row);
  const receivedAt = s.now();
  const exists = leftMs !== undefined && leftMs > 0;
  const state = { where: describeLocation(row), exists, value: null, pttlMs: exists ? Math.floor(leftMs) : -2 };
  s.history.add('store-observed', undefined, { label, key: row.key, ...state, sentAt });
  return { ...state, sentAt, receivedAt, liveUntil: exists ? sentAt + leftMs : sentAt };
}

/** "1 advisory lock (session 123, granted)" — for details and explanations. */
export function describeLocks(locks: AdvisoryLock[]): string {
  if (locks.length === 0) return 'no advisory lock';
  const each = locks.map(
    (l) => `session ${l.pid}${l.application ? ` ${l.application}` : ''}, ${l.granted ? 'granted' : 'waiting'}`,
  );
  return `${locks.length} advisory lock(s) (${each.join('; ')})`;
}
