/**
 * One clock-offset file (docker/clock-offset/clock-offset.c reads it on every read of its clock):
 * the offset in ms as text, replaced atomically (a temp file, then rename) so the process sees the
 * new offset on its very next read, readable by a server running as another user (Postgres runs as
 * `postgres`), with a fresh mtime on each write (the library re-reads the file when its inode, size
 * or mtime changes, and a reused inode with the same size within one coarse mtime tick would hide a
 * step).
 */
import { chmodSync, renameSync, utimesSync, writeFileSync } from 'node:fs';

export class OffsetFile {
  #current = 0;
  #generation = 0;

  constructor(readonly path: string) {}

  get offsetMs(): number {
    return this.#current;
  }

  write(offsetMs: number): void {
    if (!Number.isInteger(offsetMs)) throw new Error(`a clock offset must be a whole number of ms, got ${offsetMs}`);
    const partial = `${this.path}.tmp`;
    writeFileSync(partial, `${offsetMs}\n`);
    chmodSync(partial, 0o644);
    this.#generation += 1;
    utimesSync(partial, this.#generation, this.#generation);
    renameSync(partial, this.path);
    this.#current = offsetMs;
  }
}
