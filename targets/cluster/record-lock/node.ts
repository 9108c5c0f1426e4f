/**
 * One node of a small cluster record lock, in the shape of the amortized per-record ownership
 * design (/work/shared/reference/pr-cluster-record-locks.md): every key has a home (a rendezvous
 * hash over the members); a node asks the key's home for a delegation, the exclusive right to admit
 * critical sections on the key for a bounded time; under a live delegation with room for the lock
 * lease, lock() is local and costs no message. A home grants one delegation per key at a time and
 * re-grants only after the previous one was released or expired on its own clock plus a skew; when
 * another node asks, it recalls the delegate, which drains and releases with the full token
 * (generation, incarnation, counter). Each `RecordLockOptions` field is one guard the design
 * names, with the defect its first implementation had as the other choice.
 */
import { randomBytes } from 'node:crypto';
import type { TargetEnv } from '../../contract.ts';
import { Channel, type Message, type Transport } from './channel.ts';
import { homeFor } from './rendezvous.ts';

export interface RecordLockOptions {
  /** Where a delegate anchors a grant's deadline: at the request's send (the design), or at the reply's arrival (its first implementation). */
  anchor: 'send' | 'arrival';
  /** How a recalled delegate drains: revoke every handle it admitted, checked at commit (the design), or wait on the admission count alone. */
  drain: 'revoke' | 'admissions';
  /** Which clock a delegate's deadline is read on: its own monotonic clock (the design), or the home's wall-clock expiry against its own wall clock. */
  clock: 'own-monotonic' | 'remote-wall';
  /**
   * How the job writes (not a guard: the caller's pattern): inside the critical section (lock, write,
   * unlock), or staged and committed after unlock behind the node's commit check (the design's callers).
   */
  write: 'inside' | 'staged';
}

interface Token {
  generation: number;
  incarnation: string;
  counter: number;
}
const sameToken = (a: Token, b: Token) =>
  a.generation === b.generation && a.incarnation === b.incarnation && a.counter === b.counter;
export const tokenText = (t: Token) => `${t.generation}.${t.incarnation}.${t.counter}`;

interface Grant {
  to: string;
  token: Token;
  expiresMono: number;
}
interface Handle {
  id: number;
  key: string;
  leaseUntil: number;
  released: boolean;
  committing: boolean;
  revoked: boolean;
}
interface Delegation {
  token: Token;
  deadline: number;
  draining: boolean;
  handles: Handle[];
}

const mono = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RecordLockNode {
  readonly id: string;
  readonly #members: string[];
  readonly #peers = new Map<string, Channel>();
  readonly #grants = new Map<string, Grant>();
  readonly #delegations = new Map<string, Delegation>();
  readonly #handles = new Map<number, Handle>();
  /** Keys with a delegation request in flight, and the token a recall named meanwhile (handled once the reply is in). */
  readonly #asking = new Map<string, { recalled?: Token }>();
  readonly #incarnation = randomBytes(3).toString('hex');
  #counter = 0;
  #nextHandle = 1;
  #server: { close(): void } | undefined;
  /** The delegation lease, the lock lease it must have room for, and the home's skew allowance. */
  readonly delegationMs: number;
  readonly lockMs: number;
  readonly skewMs: number;

  constructor(
    env: TargetEnv,
    private readonly options: RecordLockOptions,
    private readonly transport: Transport,
  ) {
    this.id = env.node!.id;
    this.#members = [this.id, ...env.peers!.map((p) => p.id)].sort();
    for (const peer of env.peers!) this.#peers.set(peer.id, new Channel(transport, peer.host, peer.port));
    this.delegationMs = env.ttlMs;
    this.lockMs = Math.max(5, Math.round(env.ttlMs / 4));
    this.skewMs = Math.max(2, Math.round(env.ttlMs / 10));
  }

  async listen(host: string, port: number): Promise<void> {
    this.#server = await this.transport.serve(host, port, (m, reply) => void this.#onMessage(reply, m));
  }

  homeOf(key: string): string {
    return homeFor(key, this.#members);
  }

  /** What this node, as the key's home, has granted and for how long yet (its own clock). */
  report(key: string) {
    const grant = this.#grants.get(key);
    const live = grant && mono() <= grant.expiresMono ? grant : undefined;
    return {
      home: this.homeOf(key),
      holder: live?.to ?? null,
      token: live ? tokenText(live.token) : null,
      ...(live ? { remainingMs: live.expiresMono - mono() } : {}),
    };
  }

  close(): void {
    this.#server?.close();
    for (const channel of this.#peers.values()) channel.close();
  }

  async #onMessage(send: (reply: Message) => void, m: Message): Promise<void> {
    const key = String(m.key ?? '');
    switch (m.type) {
      case 'lock':
        return send({ type: 'locked', rid: m.rid, ...(await this.#lock(key)) });
      case 'unlock':
        this.#handle(m).released = true;
        return send({ type: 'unlocked', rid: m.rid });
      case 'commit': {
        const handle = this.#handle(m);
        handle.committing = !handle.revoked;
        return send({ type: 'commit-checked', rid: m.rid, ok: !handle.revoked });
      }
      case 'committed':
        this.#handle(m).committing = false;
        return;
      case 'request':
        return send({ rid: m.rid, ...this.#arbitrate(String(m.from), key, Number(m.leaseMs)) });
      case 'recall':
        return this.#recalled(key, m.token as Token);
      case 'release':
        return this.#released(String(m.from), key, m.token as Token);
    }
  }

  #handle(m: Message): Handle {
    const handle = this.#handles.get(Number(m.handle));
    if (!handle) throw new Error(`node ${this.id}: unknown handle ${String(m.handle)}`);
    return handle;
  }

  /** A lock: local under a live delegation with room for the lock lease, else one round to the key's home. */
  async #lock(key: string): Promise<{ ok: boolean; handle?: number; token?: string; why?: string }> {
    let delegation = this.#delegations.get(key);
    if (!delegation || delegation.draining || delegation.deadline - mono() < this.lockMs) {
      if (delegation?.draining) return { ok: false, why: 'the delegation is draining (recalled by its home)' };
      delegation = await this.#delegate(key);
      if (!delegation) return { ok: false, why: `contended: ${this.homeOf(key)} has granted ${key} to another node` };
      if (delegation.draining) return { ok: false, why: 'the delegation was recalled as it arrived' };
    }
    const now = mono();
    if (delegation.handles.some((h) => !h.released && h.leaseUntil > now))
      return { ok: false, why: 'held on this node' };
    const handle: Handle = {
      id: this.#nextHandle++,
      key,
      leaseUntil: now + this.lockMs,
      released: false,
      committing: false,
      revoked: false,
    };
    delegation.handles.push(handle);
    this.#handles.set(handle.id, handle);
    return { ok: true, handle: handle.id, token: tokenText(delegation.token) };
  }

  /** Ask the key's home for a delegation (twice at most: a grant that outlived itself is asked again). */
  async #delegate(key: string): Promise<Delegation | undefined> {
    const asking: { recalled?: Token } = {};
    this.#asking.set(key, asking);
    const delegation = await this.#ask(key).finally(() => this.#asking.delete(key));
    // A recall that came while the request was out: drain what was installed, or give back what was not.
    if (asking.recalled && delegation) void this.#recalled(key, asking.recalled);
    else if (asking.recalled) this.#release(key, asking.recalled);
    return delegation;
  }

  async #ask(key: string): Promise<Delegation | undefined> {
    const home = this.homeOf(key);
    for (let attempt = 0; attempt < 2; attempt++) {
      const sentAt = mono();
      const request = { type: 'request', key, from: this.id, leaseMs: this.delegationMs };
      const reply =
        home === this.id
          ? this.#arbitrate(this.id, key, this.delegationMs)
          : await this.#peers.get(home)!.ask(request, 10 * this.delegationMs + 5000);
      const arrivedAt = mono();
      if (reply?.type !== 'grant') return undefined;
      const deadline =
        this.options.clock === 'remote-wall'
          ? arrivedAt + (Number(reply.expiresAtWall) - Date.now())
          : (this.options.anchor === 'send' ? sentAt : arrivedAt) + Number(reply.leaseMs);
      if (deadline - mono() < this.lockMs) continue; // the reply outlived its own delegation: ask again
      const old = this.#delegations.get(key);
      const delegation: Delegation = {
        token: reply.token as Token,
        deadline,
        draining: false,
        handles: old?.handles ?? [],
      };
      this.#delegations.set(key, delegation);
      return delegation;
    }
    return undefined;
  }

  /** As the key's home: grant (or renew) to `from`, or recall the live delegate and answer contended. */
  #arbitrate(from: string, key: string, leaseMs: number): Message {
    const now = mono();
    const grant = this.#grants.get(key);
    if (grant && grant.to !== from && now <= grant.expiresMono + this.skewMs) {
      this.#recall(grant.to, key, grant.token);
      return { type: 'contended', key };
    }
    const token: Token = { generation: 1, incarnation: this.#incarnation, counter: ++this.#counter };
    this.#grants.set(key, { to: from, token, expiresMono: now + leaseMs });
    return { type: 'grant', key, token, leaseMs, expiresAtWall: Date.now() + leaseMs };
  }

  #recall(to: string, key: string, token: Token): void {
    if (to === this.id) void this.#recalled(key, token);
    else this.#peers.get(to)!.tell({ type: 'recall', key, token });
  }

  /** As a delegate: stop admitting, drain, and release the delegation to its home with its full token. */
  async #recalled(key: string, recalled: Token): Promise<void> {
    const asking = this.#asking.get(key);
    if (asking) return void (asking.recalled = recalled);
    const delegation = this.#delegations.get(key);
    if (delegation?.draining) return;
    if (delegation) {
      delegation.draining = true;
      const live = () => delegation.handles.filter((h) => !h.released && h.leaseUntil > mono()).length;
      const committing = () => delegation.handles.filter((h) => h.committing && h.leaseUntil > mono()).length;
      while (live() > 0 || (this.options.drain === 'revoke' && committing() > 0)) await sleep(2);
      if (this.options.drain === 'revoke') for (const handle of delegation.handles) handle.revoked = true;
      this.#delegations.delete(key);
    }
    this.#release(key, delegation?.token ?? recalled);
  }

  #release(key: string, token: Token): void {
    const home = this.homeOf(key);
    if (home === this.id) this.#released(this.id, key, token);
    else this.#peers.get(home)!.tell({ type: 'release', key, token, from: this.id });
  }

  /** As the key's home: a release clears the grant only when it carries the grant's whole token. */
  #released(from: string, key: string, token: Token): void {
    const grant = this.#grants.get(key);
    if (grant && grant.to === from && sameToken(grant.token, token)) this.#grants.delete(key);
  }
}
