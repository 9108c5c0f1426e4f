/**
 * Where a Redis command takes a lock, as an acquire does: the key of SET … NX and SETNX, the hash
 * field of HSETNX, the keys of an EVAL / EVALSHA / FCALL. Used to infer where a target's lock lives
 * from its own acquire when it declares no storeKey.
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
