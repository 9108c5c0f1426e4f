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
 * A Redis command or script that extends the lock key's TTL: (P)EXPIRE(AT), SET ... XX, or a script
 * calling (p)expire or re-setting the key with PX (redlock's extend script). Arm it after the
 * holder acquired, so an acquire script is not mistaken for a renewal.
 */
export const REDIS_RENEWAL: readonly CommandPattern[] = [
  { command: ['PEXPIRE', 'EXPIRE', 'PEXPIREAT', 'EXPIREAT'] },
  { command: 'SET', text: / XX(?: |$)/i },
  { command: ['EVAL', 'EVALSHA', 'FCALL'], script: /p?expire|["']set["'][^)]*["']px["']/i },
];
