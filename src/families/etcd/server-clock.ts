/**
 * etcd's wall clock, read the one way its API shows it: the `Date` header its HTTP gateway (Go's
 * net/http, stamping time.Now()) puts on every answer, in whole seconds. One header is a second
 * wide, so the read asks `/version` back to back until the second turns over: the turn happened
 * between the server answering the last ask of the old second and the first of the new one, which
 * pins the server's clock to within that pair's round trips (a few ms on loopback). A read costs
 * up to a second of asking; V317 makes one per leg. Returns the server's clock as of the moment the
 * read resolves.
 */
import { assertLoopbackUrl } from '../../stores/loopback.ts';

/** How long a read may take before it gives up: the second must turn over well within it. */
const READ_DEADLINE_MS = 5000;

interface Answer {
  /** The header's second, epoch ms. */
  second: number;
  sentAt: number;
  receivedAt: number;
}

export async function etcdClockMs(url: string): Promise<number> {
  const base = `http://${assertLoopbackUrl(url).host}`;
  const ask = async (): Promise<Answer> => {
    const sentAt = performance.now();
    const response = await fetch(`${base}/version`, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    const receivedAt = performance.now();
    const second = Date.parse(response.headers.get('date') ?? '');
    if (Number.isNaN(second)) throw new Error(`etcd at ${base} answered /version without a Date header`);
    return { second, sentAt, receivedAt };
  };
  const started = performance.now();
  let last = await ask();
  while (performance.now() - started < READ_DEADLINE_MS) {
    const next = await ask();
    if (next.second > last.second) {
      // The server's clock read next.second somewhere between answering `last` and answering `next`.
      const turnedAt = (last.sentAt + next.receivedAt) / 2;
      return next.second + (performance.now() - turnedAt);
    }
    last = next;
  }
  throw new Error(`etcd at ${base}: its Date header did not turn over within ${READ_DEADLINE_MS} ms`);
}
