/**
 * The Redis commands oracles hold at the wire, recognised the same way whatever client library the
 * target uses: a delete of the lock key (V310), a renewal of the lease (V313).
 */
import type { CommandPattern } from '../../wire/command.ts';

/** A Redis command or script that deletes the lock key: DEL, UNLINK, DELEX, or a script calling del/unlink. */
export const REDIS_DELETE: readonly CommandPattern[] = [
  { command: ['DEL', 'UNLINK', 'DELEX'] },
  { command: ['EVAL', 'EVALSHA', 'FCALL'], script: /\b(del|unlink)\b/i },
];

/**
 * A Redis command or script that clears a hash field the lock lives in, as the app clears a claim:
 * HDEL of the field, HSET/HMSET of it to an empty value (the app's "free"), or a script calling
 * hdel, or hset with an empty string.
 */
export function clearsHashField(field: string): CommandPattern[] {
  const setsEmpty = (args: readonly string[]) => {
    for (let i = 1; i + 1 < args.length; i += 2) if (args[i] === field && args[i + 1]!.trim() === '') return true;
    return false;
  };
  return [
    { command: 'HDEL', args: { what: `deleting field ${field}`, test: (args) => args.slice(1).includes(field) } },
    { command: ['HSET', 'HMSET'], args: { what: `setting field ${field} to ''`, test: setsEmpty } },
    { command: ['EVAL', 'EVALSHA', 'FCALL'], script: /["']hdel["']|["']hset["'][^)]*(''|"")/i },
  ];
}

/**
 * A Redis command or script that extends the lock key's TTL: (P)EXPIRE(AT), SET ... XX, or a script
 * calling (p)expire or re-setting the key with PX (redlock's extend script). Arm it after the
 * holder acquired, so an acquire script is not mistaken for a renewal.
 */
export const REDIS_RENEWAL: readonly CommandPattern[] = [
  { command: ['PEXPIRE', 'EXPIRE', 'PEXPIREAT', 'EXPIREAT'] },
  { command: 'SET', text: / XX(?: |$)/i },
  { command: ['EVAL', 'EVALSHA', 'FCALL'], script: /p?expire|["']set["'][^)]*["']px["']/i },
];
