/**
 * The OS user a Postgres or PgBouncer server runs as. Both refuse to run as root, so when the
 * harness runs as root they run as Debian's `postgres` user (created by the postgresql package),
 * and the dirs they write are given to it. Run as any other user, they run as that user.
 */
import { chownSync, readFileSync } from 'node:fs';
import { StoreUnavailableError } from '../core/errors.ts';

export interface ServerUser {
  uid: number;
  gid: number;
  /** Shown in errors and evidence. */
  name: string;
}

/** The user to run the server as, or undefined to run it as the current (non-root) user. */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new StoreUnavailableError(
      'Postgres and PgBouncer refuse to run as root, and this machine has no "postgres" user to run them as.',
      'npm run setup   (apt-get install postgresql creates the postgres user), or run the harness as a non-root user',
    );
  }
  return { uid: Number(uid), gid: Number(gid), name: 'postgres' };
}

/** Why the servers could not run as their user here (for a recipe's `missing()`), or null. */
export function serverUserMissing(): StoreUnavailableError | null {
  try {
    serverUser();
    return null;
  } catch (error) {
    if (error instanceof StoreUnavailableError) return error;
    throw error;
  }
}

/** Give `path` (not recursive) to the server user; a no-op when running as the current user. */
export function giveTo(user: ServerUser | undefined, path: string): void {
  if (user) chownSync(path, user.uid, user.gid);
}

/** The spawn options that run a process as the server user. */
export function runAs(user: ServerUser | undefined): { uid?: number; gid?: number } {
  return user ? { uid: user.uid, gid: user.gid } : {};
}
