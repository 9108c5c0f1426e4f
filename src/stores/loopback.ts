/** The harness only talks to stores on this machine's loopback interface. */
import { isIPv4 } from 'node:net';

/**
 * True for a loopback host: a dotted IPv4 address in 127.0.0.0/8 (every octet 0–255, so that
 * "127.999.999.999", which is no address and would go to a resolver, is refused), localhost, ::1.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (/^localhost$/i.test(bare) || bare === '::1') return true;
  return isIPv4(bare) && bare.split('.')[0] === '127';
}

/** Throws unless `url`'s host is a loopback address; the message names the URL and the rule. */
export function assertLoopbackUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`store URL "${url}" is not a URL (expected e.g. redis://127.0.0.1:6379)`);
  }
  // A file URL with no host is a path on this machine (the fs store's scratch directory).
  if (parsed.protocol === 'file:' && parsed.hostname === '') return parsed;
  if (!isLoopbackHost(parsed.hostname)) {
    throw new Error(
      `refusing the store URL ${JSON.stringify(url)}: its host "${parsed.hostname}" is not a loopback address, and the harness only touches ` +
        `stores on loopback (127.0.0.0/8, localhost, ::1). Point it at a scratch server on this machine, or let the harness start one.`,
    );
  }
  return parsed;
}
