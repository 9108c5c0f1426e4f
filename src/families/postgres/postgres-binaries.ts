/**
 * Where Debian's Postgres server binaries are. Debian keeps them off the PATH, under
 * /usr/lib/postgresql/<major>/bin; the newest major installed is used. A `postgres` found on the
 * PATH is deliberately not used: it may be something else entirely.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const DEBIAN_ROOT = '/usr/lib/postgresql';

export interface PostgresBinaries {
  /** The major version, e.g. 15. */
  major: number;
  postgres: string;
  initdb: string;
}

/** The newest Debian Postgres installed, or null when there is none. */
export function findPostgresBinaries(): PostgresBinaries | null {
  if (!existsSync(DEBIAN_ROOT)) return null;
  const majors = readdirSync(DEBIAN_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => b - a);
  for (const major of majors) {
    const bin = join(DEBIAN_ROOT, String(major), 'bin');
    const postgres = join(bin, 'postgres');
    const initdb = join(bin, 'initdb');
    if (existsSync(postgres) && existsSync(initdb)) return { major, postgres, initdb };
  }
  return null;
}
