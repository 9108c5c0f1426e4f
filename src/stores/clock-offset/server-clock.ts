/**
 * A store server's own wall clock, offset at start and stepped at run time.
 *
 * The server is started with LD_PRELOAD=clock-offset.so (see clock-offset.c) and
 * LOCK_ORACLES_CLOCK_FILE naming a file in the store's dir that holds the offset in ms. Stepping
 * the clock replaces that file atomically (write a temp file, then rename); the server sees the new
 * offset on its very next wall-clock read. Monotonic clocks are not touched.
 *
 * In a container (src/stores/container-runtime.ts) the library file and the store's dir are
 * bind-mounted read-only; the server reads both at their paths inside the container, and a step
 * (a rename in the host dir) reaches it the same way. The library is built against this machine's
 * glibc: it loads in the locally built images (Debian 12's binaries) and in Debian 12 based ones.
 */
import { join } from 'node:path';
import type { StoreClock, StoreRequest } from '../types.ts';
import { clockOffsetLibrary } from './build.ts';
import { OffsetFile } from './offset-file.ts';

export interface ServerClock {
  /** Environment the server process must be started with. */
  env: Record<string, string>;
  control: StoreClock;
  /** The built library on this machine (a container bind-mounts it). */
  library: string;
}

/** Where a container sees the library and the store's dir (the offset file's dir). */
export interface ClockMount {
  library: string;
  dir: string;
}

/** Where a container sees the clock-offset library and the dir holding its offset file (both bind-mounted read-only). */
export const CONTAINER_CLOCK_MOUNT: ClockMount = {
  library: '/lock-oracles/clock-offset.so',
  dir: '/lock-oracles/clock',
};

/** The name of the offset file inside the store's dir. */
const CLOCK_FILE = 'clock-offset-ms';

export async function serverClockFor(
  request: StoreRequest,
  dir: string,
  mount?: ClockMount,
): Promise<ServerClock | null> {
  if (request.clockOffsetMs === undefined) return null;
  const library = await clockOffsetLibrary();
  const file = join(dir, CLOCK_FILE);
  const offset = new OffsetFile(file);
  offset.write(request.clockOffsetMs);
  return {
    env: { LD_PRELOAD: mount?.library ?? library, LOCK_ORACLES_CLOCK_FILE: mount ? join(mount.dir, CLOCK_FILE) : file },
    library,
    control: {
      mechanism: `LD_PRELOAD clock-offset library (${library}${mount ? `, bind-mounted into the container at ${mount.library}` : ''}): wall-clock reads (clock_gettime REALTIME, gettimeofday, time) shifted by the ms in ${file}, re-checked on every read; monotonic clocks untouched`,
      async setOffsetMs(offsetMs: number) {
        offset.write(offsetMs);
      },
      offsetMs: () => offset.offsetMs,
    },
  };
}
