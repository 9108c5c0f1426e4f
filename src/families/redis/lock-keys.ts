/**
 * Where a Redis command takes a lock, as an acquire does, and the value it writes there: the key of SET … NX and SETNX, the hash
 * field of HSETNX, the keys of an EVAL / EVALSHA / FCALL (and the arguments handed to it). Used to
 * infer where a target's lock lives from its own acquire when it declares no storeKey, and whose
 * command wrote the value read there.
 */
import type { StoreLocation } from '../../../targets/contract.ts';
import type { WireCommand } from '../../wire/command.ts';

/** The commands that run a script on the keys they name (numkeys, the keys, then ARGV). */
const SCRIPTS = ['EVAL', 'EVALSHA', 'FCALL', 'EVAL_RO', 'EVALSHA_RO'];

export function redisLockLocations({ name, args }: WireCommand): StoreLocation[] {
  const [first, second] = args;
  if (first === undefined) return [];
  if (name === 'SET' && args.slice(2).some((arg) => arg.toUpperCase() === 'NX')) return [first];
  if (name === 'SETNX') return [first];
  if (name === 'HSETNX' && second !== undefined) return [{ key: first, field: second }];
  if (SCRIPTS.includes(name)) {
    const numkeys = Number(second);
    return Number.isInteger(numkeys) && numkeys > 0 ? args.slice(2, 2 + numkeys) : [];
  }
  return [];
}

/**
 * The value each acquire command writes where it takes a lock: SET k v … NX, SETNX k v, HSETNX k f
 * v; and a script's arguments (ARGV) beside each key it names (`byScript`: what the script writes
 * with them is its own, but a value a holder hands a script on the lock is that holder's).
 */
export function redisAcquireWrites({
  name,
  args,
}: WireCommand): Array<{ location: StoreLocation; value: string; byScript?: true }> {
  const [first, second, third] = args;
  if (first === undefined || second === undefined) return [];
  if (name === 'SET' && args.slice(2).some((arg) => arg.toUpperCase() === 'NX'))
    return [{ location: first, value: second }];
  if (name === 'SETNX') return [{ location: first, value: second }];
  if (name === 'HSETNX' && third !== undefined) return [{ location: { key: first, field: second }, value: third }];
  if (!SCRIPTS.includes(name)) return [];
  const numkeys = Number(second);
  if (!Number.isInteger(numkeys) || numkeys <= 0) return [];
  const argv = args.slice(2 + numkeys);
  return args
    .slice(2, 2 + numkeys)
    .flatMap((key) => argv.map((value) => ({ location: key, value, byScript: true as const })));
}
