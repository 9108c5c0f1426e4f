/**
 * Where a Redis command takes a lock, as an acquire does, and the value it writes there: the key of SET … NX and SETNX, the hash
 * field of HSETNX, the keys of an EVAL / EVALSHA / FCALL. Used to infer where a target's lock lives
 * from its own acquire when it declares no storeKey, and whose acquire wrote the value read there.
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import type { WireCommand } from '../../wire/command.ts';

export function redisLockLocations({ name, args }: WireCommand): StoreLocation[] {
  const [first, second] = args;
  if (first === undefined) return [];
  if (name === 'SET' && args.slice(2).some((arg) => arg.toUpperCase() === 'NX')) return [first];
  if (name === 'SETNX') return [first];
  if (name === 'HSETNX' && second !== undefined) return [{ key: first, field: second }];
  if (['EVAL', 'EVALSHA', 'FCALL', 'EVAL_RO', 'EVALSHA_RO'].includes(name)) {
    const numkeys = Number(second);
    return Number.isInteger(numkeys) && numkeys > 0 ? args.slice(2, 2 + numkeys) : [];
  }
  return [];
}

/** The value each acquire command writes where it takes a lock: SET k v … NX, SETNX k v, HSETNX k f v (a script's values are its own). */
export function redisAcquireWrites({ name, args }: WireCommand): Array<{ location: StoreLocation; value: string }> {
  const [first, second, third] = args;
  if (first === undefined || second === undefined) return [];
  if (name === 'SET' && args.slice(2).some((arg) => arg.toUpperCase() === 'NX'))
    return [{ location: first, value: second }];
  if (name === 'SETNX') return [{ location: first, value: second }];
  if (name === 'HSETNX' && third !== undefined) return [{ location: { key: first, field: second }, value: third }];
  return [];
}
