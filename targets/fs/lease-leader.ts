/**
 * What the fs leader targets share (V315 on --store fs): leadership is the owner-record lease file
 * of lease-record.ts; a replica takes it (a `wx` create, or a takeover once its expiresAt passed) or,
 * while the record is still its own and unexpired, extends it (read, check, writeFile). The twins
 * differ only in what they do with the answer. Not a target itself.
 */
import { writeFile } from 'node:fs/promises';
import type { TargetEnv } from '../contract.ts';
import { acquireLease, leaseFile, readRecord, recordText } from './lease-record.ts';

/** The token of the lease this replica holds, or null. */
export interface LeaderState {
  token: string | null;
}

/** True when this replica holds the lease now (taken, or extended for another `ttlMs`). */
export async function takeOrExtendLease(env: TargetEnv, state: LeaderState): Promise<boolean> {
  if (state.token !== null) {
    const { path } = leaseFile(env);
    const record = await readRecord(path);
    if (record !== null && record !== 'torn' && record.ownerId === state.token && record.expiresAt > Date.now()) {
      await writeFile(path, recordText({ ownerId: state.token, expiresAt: Date.now() + env.ttlMs }));
      return true;
    }
    state.token = null;
  }
  state.token = (await acquireLease(env))?.token ?? null;
  return state.token !== null;
}
