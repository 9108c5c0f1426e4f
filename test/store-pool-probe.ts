/** For test/store-pool.test.ts: whether nothing listens on a loopback port any more (a stopped server). */
import { connect } from 'node:net';

export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
