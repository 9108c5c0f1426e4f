/**
 * A Docker engine on this machine's unix socket, spoken to with plain HTTP (node:http): enough to
 * tell whether one answers and to list or remove leftover containers, without loading
 * testcontainers (about a second to import), which only container runs need.
 */
import { request as httpRequest } from 'node:http';

/** DOCKER_HOST=unix://…, else /var/run/docker.sock; undefined for a non-unix DOCKER_HOST. */
export function dockerSocketPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const host = env.DOCKER_HOST;
  if (!host) return '/var/run/docker.sock';
  return host.startsWith('unix://') ? host.slice('unix://'.length) : undefined;
}

/** True when a Docker engine answers GET /_ping on `socketPath` within `timeoutMs`. */
export async function engineAnswers(socketPath: string, timeoutMs = 500): Promise<boolean> {
  return engineRequest(socketPath, 'GET', '/_ping', timeoutMs).then(
    () => true,
    () => false,
  );
}

/** One Engine API request; resolves with the parsed JSON body (or the text), rejects on a non-2xx answer. */
export function engineRequest(
  socketPath: string,
  method: 'GET' | 'DELETE',
  path: string,
  timeoutMs = 10_000,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath, method, path, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300)
          return reject(new Error(`the engine answered ${method} ${path} with ${status}: ${body.trim()}`));
        try {
          resolve(body ? JSON.parse(body) : undefined);
        } catch {
          resolve(body);
        }
      });
    });
    req.on('timeout', () =>
      req.destroy(new Error(`the engine did not answer ${method} ${path} within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end();
  });
}
