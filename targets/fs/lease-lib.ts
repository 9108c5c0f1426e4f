/**
 * A small lease-file library as its users meet it (like the one ../shared/reference/pr-fence-renewal-release.md
 * fixes): `new LeaseFile(path, ttlMs).acquire()` resolves to a `Lease` handle (an id of its own,
 * `renew()`, `release()`) or null. On disk it is the owner-record lease of lease-record.ts
 * ({ ownerId, expiresAt }, created wx, an expired one taken over), but the owner id is the library's
 * own (one per LeaseFile, as a library keys it by process) and is never returned: a target bound to
 * its public API has no value to report that the store holds. `fenced: false` is the version before
 * the fix (renewal and release read, check, then act by pathname: lease-file.ts's), `fenced: true`
 * the one after (through the one open file they checked: lease-renewal.ts, lease-file-fenced.ts's).
 * Not a target itself: lease-lib-by-path.ts and lease-lib-fenced.ts bind it.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { parseRecord, recordText, takeLease, type LeaseRecord } from './lease-record.ts';
import { renewOwnLease, throughOwnFile } from './lease-renewal.ts';

/** A lease held: the library's handle. Its `id` names the handle, not what the lease file holds. */
export interface Lease {
  readonly id: string;
  renew(): Promise<boolean>;
  release(): Promise<boolean>;
}

export class LeaseFile {
  /** Who this process is in the lease file's record: the library's own, never handed out. */
  readonly #ownerId = `owner-${randomUUID()}`;
  /** The renewal in flight: a fenced release waits for it. */
  #renewal: Promise<boolean> | undefined;

  constructor(
    private readonly path: string,
    private readonly ttlMs: number,
    private readonly options: { fenced: boolean },
  ) {}

  async acquire(): Promise<Lease | null> {
    const taken = await takeLease(this.path, () => this.#ownerId, this.ttlMs);
    if (taken === null) return null;
    return { id: randomUUID(), renew: () => this.#renew(), release: () => this.#release() };
  }

  readonly #mine = (record: LeaseRecord) => record.ownerId === this.#ownerId;

  async #renew(): Promise<boolean> {
    if (!this.options.fenced) {
      const record = parseRecord(await readFile(this.path, 'utf8').catch(() => ''));
      if (!record || !this.#mine(record) || record.expiresAt <= Date.now()) return false;
      await writeFile(this.path, recordText({ ownerId: this.#ownerId, expiresAt: Date.now() + this.ttlMs }));
      return true;
    }
    const renewal = renewOwnLease(this.path, this.#mine, this.ttlMs);
    this.#renewal = renewal;
    try {
      return await renewal;
    } finally {
      if (this.#renewal === renewal) this.#renewal = undefined;
    }
  }

  async #release(): Promise<boolean> {
    if (!this.options.fenced) {
      const record = parseRecord(await readFile(this.path, 'utf8').catch(() => ''));
      if (!record || !this.#mine(record)) return false;
      await rm(this.path, { force: true });
      return true;
    }
    await this.#renewal?.catch(() => false);
    return throughOwnFile(this.path, this.#mine, async (file, record) => {
      await file.write(recordText({ ownerId: record.ownerId, expiresAt: 0 }), 0);
      return true;
    });
  }
}
