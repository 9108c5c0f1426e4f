/**
 * What the fs leader targets share (V315 on --store fs): leadership is the owner-record lease file
 * of lease-record.ts; a replica takes it (a `wx` create, or a takeover once its expiresAt passed) or,
 * while the record is still its own and unexpired, extends it through the file it checked
 * (lease-renewal.ts: a replica paused between its check and its write cannot overwrite a successor's
 * record, which an exploration found a plain read-check-writeFile doing). The twins differ only in
 * what they do with the answer. Not a target itself.
 */
import type { TargetEnv } from '../contract.ts';
import { acquireLease, leaseFile } from './lease-record.ts';
import { renewOwnLease } from './lease-renewal.ts';

/** The token of the lease this replica holds, or null. */
export interface LeaderState {
  token: string | null;
}

/** True when this replica holds the lease now (taken, or extended for another `ttlMs`). */
export async function takeOrExtendLease(env: TargetEnv, state: LeaderState): Promise<boolean> {
  if (state.token !== null) {
    const token = state.token;
    if (await renewOwnLease(leaseFile(env).path, (record) => record.ownerId === token, env.ttlMs)) return true;
    state.token = null;
  }
  state.token = (await acquireLease(env))?.token ?? null;
  return state.token !== null;
}
