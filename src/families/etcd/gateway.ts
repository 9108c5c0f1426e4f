/**
 * The harness's own client of an etcd member: its gRPC JSON gateway on the client port (`POST
 * /v3/kv/range`, `/v3/lease/timetolive`, `/v3/lease/revoke`, on a cluster `/v3/maintenance/status`,
 * `/v3/cluster/member/list`, `/v3/maintenance/transfer-leadership`; `GET /version`), with Node's fetch.
 * Keys and values travel base64-encoded; 64-bit numbers come back as decimal strings, and a field
 * whose value is zero is left out (proto3's JSON mapping). No gRPC client in the harness's runtime.
 */
import { assertLoopbackUrl } from '../../stores/loopback.ts';

/** One key as etcd keeps it. */
export interface EtcdKey {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
  /** The lease it is attached to, as a decimal string ('0': none). */
  lease: string;
}

interface RawKv {
  key: string;
  value?: string;
  create_revision?: string;
  mod_revision?: string;
  version?: string;
  lease?: string;
}

const fromBase64 = (text: string | undefined) => Buffer.from(text ?? '', 'base64').toString('utf8');
const toBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The smallest key after every key starting with `prefix` (etcd's range_end for a prefix read). */
function prefixEnd(prefix: string): string {
  const bytes = Buffer.from(prefix, 'utf8');
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) return Buffer.concat([bytes.subarray(0, i), Buffer.from([bytes[i]! + 1])]).toString('base64');
  }
  return Buffer.from([0]).toString('base64');
}

export class EtcdGateway {
  readonly #base: string;

  /** `url`: the member's client URL (http://127.0.0.1:PORT); a non-loopback one is refused. `timeoutMs`: each request's. */
  constructor(
    url: string,
    private readonly timeoutMs = 5000,
  ) {
    const parsed = assertLoopbackUrl(url);
    this.#base = `http://${parsed.host}`;
  }

  async #post<T>(path: string, body: unknown): Promise<T> {
    const response = await fetch(`${this.#base}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`etcd ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  /** Any other gateway call (`path`: '/v3/lease/leases', …), its JSON answer (src/families/etcd/reset.ts). */
  request<T>(path: string, body: unknown): Promise<T> {
    return this.#post(path, body);
  }

  /** The key, or null where there is none. */
  async get(key: string): Promise<EtcdKey | null> {
    const { kvs } = await this.#post<{ kvs?: RawKv[] }>('/v3/kv/range', { key: toBase64(key) });
    return kvs?.[0] ? keyOf(kvs[0]) : null;
  }

  /**
   * Every key under `prefix`, oldest first (by create revision: etcd's own queue order for Mutex and
   * Election); `local`: as this member alone has them (a serializable read).
   */
  async under(prefix: string, local = false): Promise<EtcdKey[]> {
    const { kvs } = await this.#post<{ kvs?: RawKv[] }>('/v3/kv/range', {
      key: toBase64(prefix),
      range_end: prefixEnd(prefix),
      sort_order: 'ASCEND',
      sort_target: 'CREATE',
      ...(local ? { serializable: true } : {}),
    });
    return (kvs ?? []).map(keyOf);
  }

  /** A lease's remaining TTL in whole seconds by the server (−1: the lease is gone), and the TTL it was granted with. */
  async timeToLive(lease: string): Promise<{ ttl: number; grantedTtl: number }> {
    const answer = await this.#post<{ TTL?: string; grantedTTL?: string }>('/v3/lease/timetolive', { ID: lease });
    return { ttl: Number(answer.TTL ?? 0), grantedTtl: Number(answer.grantedTTL ?? 0) };
  }

  /** A read of `key` answered by this member alone from its own state (serializable: no round to the leader). */
  async getLocal(key: string): Promise<EtcdKey | null> {
    const { kvs } = await this.#post<{ kvs?: RawKv[] }>('/v3/kv/range', { key: toBase64(key), serializable: true });
    return kvs?.[0] ? keyOf(kvs[0]) : null;
  }

  /** This member's id and the leader it follows (decimal ids; leader '0': it knows none). */
  async status(): Promise<{ member: string; leader: string; raftTerm: number }> {
    const answer = await this.#post<{ header?: { member_id?: string }; leader?: string; raftTerm?: string }>(
      '/v3/maintenance/status',
      {},
    );
    return {
      member: answer.header?.member_id ?? '0',
      leader: answer.leader ?? '0',
      raftTerm: Number(answer.raftTerm ?? 0),
    };
  }

  /** Every member's id by its name. */
  async memberIds(): Promise<Map<string, string>> {
    const { members } = await this.#post<{ members?: Array<{ ID?: string; name?: string }> }>(
      '/v3/cluster/member/list',
      {},
    );
    return new Map((members ?? []).map((m) => [m.name ?? '', m.ID ?? '0']));
  }

  /** Ask this member, the leader, to hand leadership to member `targetId` (etcdctl move-leader). */
  async moveLeader(targetId: string): Promise<void> {
    await this.#post('/v3/maintenance/transfer-leadership', { targetID: targetId });
  }

  /** Revoke a lease on the server: every key attached to it is deleted at once. */
  async revoke(lease: string): Promise<void> {
    await this.#post('/v3/lease/revoke', { ID: lease });
  }
}

function keyOf(kv: RawKv): EtcdKey {
  return {
    key: fromBase64(kv.key),
    value: fromBase64(kv.value),
    createRevision: Number(kv.create_revision ?? 0),
    modRevision: Number(kv.mod_revision ?? 0),
    version: Number(kv.version ?? 0),
    lease: kv.lease ?? '0',
  };
}

/** The member's own version (GET /version: "3.4.23"); throws until it answers. */
export async function etcdVersion(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/version`, { signal: AbortSignal.timeout(2000) });
  const { etcdserver } = (await response.json()) as { etcdserver?: string };
  if (!etcdserver) throw new Error(`etcd on 127.0.0.1:${port} answered /version without its version`);
  return etcdserver;
}
