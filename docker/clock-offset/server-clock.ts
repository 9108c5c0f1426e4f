/**
 * A store server's own wall clock, offset at start and stepped at run time.
 * Placeholder until the clock-offset library lands: no server clock capability yet, and a request
 * for one is refused with a message rather than silently ignored.
 */
import type { StoreClock, StoreRequest } from '../../src/stores/types.ts';

export interface ServerClock {
  /** Environment the server process must be started with. */
  env: Record<string, string>;
  control: StoreClock;
}

export async function serverClockFor(request: StoreRequest, _dir: string): Promise<ServerClock | null> {
  if (request.clockOffsetMs === undefined) return null;
  throw new Error(`store clock offsets are not available yet for ${request.kind}`);
}
