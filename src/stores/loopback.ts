/** The harness only talks to stores on this machine's loopback interface. */
const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[?::1\]?)$/i;

/** Throws unless `url`'s host is a loopback address; the message names the URL and the rule. */
export function assertLoopbackUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--store-url: "${url}" is not a URL (expected e.g. redis://127.0.0.1:6379)`);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!LOOPBACK.test(host) && host !== '::1') {
    throw new Error(
      `--store-url: refusing "${parsed.hostname}": the harness only touches stores on loopback ` +
        `(127.0.0.0/8, localhost, ::1). Point it at a scratch server on this machine, or let it start one.`,
    );
  }
  return parsed;
}
