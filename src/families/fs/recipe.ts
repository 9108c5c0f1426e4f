/**
 * The fs store: a scratch directory on this machine's real filesystem, made for the run by the
 * local runtime (a run dir, src/process/run-dir.ts: marked with its owner, removed after the run,
 * reaped after a SIGKILLed harness). Holders build their lock paths under its `locks/` directory
 * (env.dir; the run dir's own owner file stays outside it). There is no server and no container:
 * the store is the kernel's filesystem, shared by every process on this machine.
 */
import { mkdirSync, statfsSync } from 'node:fs';
import { release, type } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StoreRecipe } from '../../stores/types.ts';

/** Filesystem names by statfs magic number (linux/magic.h), for the evidence. */
const FILESYSTEMS: Record<number, string> = {
  0x01021994: 'tmpfs',
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x794c7630: 'overlayfs',
  0x6969: 'nfs',
};

/** "Linux 6.1.0-18-amd64, tmpfs": the kernel and the filesystem the locks live on. */
function version(dir: string): string {
  const magic = statfsSync(dir).type;
  return `${type()} ${release()}, ${FILESYSTEMS[magic] ?? `filesystem 0x${magic.toString(16)}`}`;
}

export const fsRecipe: StoreRecipe = {
  kind: 'fs',
  noContainer:
    'the fs store is a scratch directory on this machine, shared by the holders through its kernel; it has no container, so use --runtime local (the default) or auto',
  missing: async () => null,
  async startLocal({ dir }) {
    const locks = join(dir, 'locks');
    mkdirSync(locks);
    return {
      kind: 'fs',
      url: pathToFileURL(locks).href,
      host: '',
      port: 0,
      version: version(locks),
      capabilities: {},
      // The local runtime removes the run dir (and with it every lock) after this.
      stop: async () => undefined,
    };
  },
};
