/**
 * A small directory-lock library as its users meet it (a mkdir lock, like proper-lockfile's, with no
 * owner record): `new DirLock(path, staleMs, options).lock()` resolves to an `unlock()` or null. The
 * lock is the directory alone; one older than `staleMs` (its mtime) is taken over (rm, mkdir). The
 * library hands out nothing that names the lock, so a target bound to it reports no token: the
 * harness tells whose directory is there from the holders' own calls (the inode each one's mkdir
 * left). `checked: false` unlocks by path (rm -r whatever the path names now); `checked: true` first
 * checks the path still names the directory it made (inode and birth time), and leaves another's.
 * Not a target itself: dir-lock-lib-by-path.ts and dir-lock-lib-checked.ts bind it.
 */
import { lstat, mkdir, rm, rmdir } from 'node:fs/promises';

/** Which directory a lock is: its inode and birth time, as lstat gives them. */
interface Made {
  ino: number;
  birthtimeMs: number;
}

export class DirLock {
  constructor(
    private readonly path: string,
    private readonly staleMs: number,
    private readonly options: { checked: boolean },
  ) {}

  /** Take the lock: its unlock, or null when a live lock is there. */
  async lock(): Promise<(() => Promise<boolean>) | null> {
    let made = await this.#made();
    if (!made) {
      const seen = await lstat(this.path).catch(() => undefined);
      if (seen && seen.mtimeMs > Date.now() - this.staleMs) return null;
      await rm(this.path, { recursive: true, force: true });
      made = await this.#made();
    }
    return made ? () => this.#unlock(made) : null;
  }

  /** mkdir, and which directory it made; undefined when one is already there. */
  async #made(): Promise<Made | undefined> {
    try {
      await mkdir(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw error;
    }
    const { ino, birthtimeMs } = await lstat(this.path);
    return { ino, birthtimeMs };
  }

  async #unlock(mine: Made): Promise<boolean> {
    if (this.options.checked) {
      const now = await lstat(this.path).catch(() => undefined);
      if (!now || now.ino !== mine.ino || now.birthtimeMs !== mine.birthtimeMs) return false;
      await rmdir(this.path);
      return true;
    }
    await rm(this.path, { recursive: true, force: true });
    return true;
  }
}
