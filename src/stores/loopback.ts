/** The harness only talks to stores on this machine's loopback interface. */
const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[?::1\]?)$/i;

/** True for a loopback host: 127.0.0.0/8, localhost, ::1 (bracketed or not). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.replace(/^\[|\]$/g, ''));
}

/** Throws unless `url`'s host is a loopback address; the message names the URL and the rule. */
export function assertLoopbackUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--store-url: "${url}" is not a URL (expected e.g. redis://127.0.0.1:6379)`);
  }
  if (!isLoopbackHost(parsed.hostname)) {
    throw new Error(
      `--store-url: refusing "${parsed.hostname}": the harness only touches stores on loopback ` +
        `(127.0.0.0/8, localhost, ::1). Point it at a scratch server on this machine, or let it start one.`,
    );
  }
  return parsed;
}
