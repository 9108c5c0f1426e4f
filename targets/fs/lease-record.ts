/**
 * What the lease-file references share (lease-file.ts, lease-file-fenced.ts): the owner-record lease
 * of ../shared/reference/pr-fence-renewal-release.md, a file `<key>.lease` under env.dir created with
 * `wx` and holding the JSON record { ownerId, expiresAt } (epoch ms on the writer's clock). A
 * contender whose `wx` fails reads the record and, once its expiresAt has passed, removes the file
 * and creates its own. Renewal and release are each target's own: they are what its twins differ by.
 * Not a target itself.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLock, TargetEnv } from '../contract.ts';
import { newToken } from './lock-dir.ts';

export interface LeaseRecord {
  ownerId: string;
  expiresAt: number;
}

/**
 * Every record is written padded to this many bytes, so a renewal that writes in place (at offset
 * 0, with no truncate) replaces the whole record and a reader never sees an empty file.
 */
const RECORD_BYTES = 160;

/** The lease file, relative to env.dir (what storeKey declares) and absolute (what the calls use). */
export function leaseFile(env: TargetEnv): { name: string; path: string } {
  if (env.dir === undefined) throw new Error('this target keeps its lease in a file: run it with --store fs');
  const name = `${env.key}.lease`;
  return { name, path: join(env.dir, name) };
}

/** Where the harness reads the lease: the file, its owner and its expiry fields. */
export function leaseLocation(env: TargetEnv): FileLock {
  return { path: leaseFile(env).name, record: { owner: 'ownerId', expiresAt: 'expiresAt' } };
}

export function recordText(record: LeaseRecord): string {
  return JSON.stringify(record).padEnd(RECORD_BYTES);
}

/** The record in `text`, or null when it is not a whole one. */
export function parseRecord(text: string): LeaseRecord | null {
  try {
    const record = JSON.parse(text) as Partial<LeaseRecord>;
    return typeof record.ownerId === 'string' && typeof record.expiresAt === 'number'
      ? { ownerId: record.ownerId, expiresAt: record.expiresAt }
      : null;
  } catch {
    return null;
  }
}

/** The record at `path`: null when there is no file, 'torn' when it holds no whole record. */
export async function readRecord(path: string): Promise<LeaseRecord | 'torn' | null> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  return text === null ? null : (parseRecord(text) ?? 'torn');
}

/** Create the lease file with `wx`: false when one is already there. */
async function created(path: string, record: LeaseRecord): Promise<boolean> {
  return writeFile(path, recordText(record), { flag: 'wx' }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
}

/** Take the lease: create it, or take over one whose expiresAt has passed on this holder's clock. */
export async function acquireLease(env: TargetEnv): Promise<{ token: string } | null> {
  const ownerId = await takeLease(leaseFile(env).path, () => newToken(env), env.ttlMs);
  return ownerId === null ? null : { token: ownerId };
}

/** Take the lease at `path` for `ttlMs` under an owner id from `ownerId`: the id written, or null when another holds it. */
export async function takeLease(path: string, ownerId: () => string, ttlMs: number): Promise<string | null> {
  const mine = (): LeaseRecord => ({ ownerId: ownerId(), expiresAt: Date.now() + ttlMs });
  const record = mine();
  if (await created(path, record)) return record.ownerId;
  const seen = await readRecord(path);
  // A torn record is being written by its owner: live.
  if (seen === 'torn' || (seen !== null && seen.expiresAt > Date.now())) return null;
  if (seen !== null) await rm(path, { force: true });
  const again = mine();
  return (await created(path, again)) ? again.ownerId : null;
}
