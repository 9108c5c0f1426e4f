/** The Postgres statements oracles hold at the wire: a renewal of a lease row (V313). */
import type { CommandPattern } from '../../wire/command.ts';

/** A Postgres renewal of a lease row: an UPDATE statement that sets a lease / expiry column. */
export const PG_RENEWAL: readonly CommandPattern[] = [
  { text: /^\s*update\b[\s\S]*\bset\b[\s\S]*\b\w*(lease|expir)\w*\s*=/i },
];
