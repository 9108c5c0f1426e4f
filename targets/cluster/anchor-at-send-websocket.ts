/** Good, over WebSocket: anchor-at-send.ts with its nodes and holders speaking JSON in WebSocket frames (the `ws` package), so the harness's link proxies split its links by WebSocket frame. */
import { recordLockTarget } from './record-lock/target.ts';
import { websocketTransport } from './record-lock/websocket.ts';

export default recordLockTarget(
  { anchor: 'send', drain: 'revoke', clock: 'own-monotonic', write: 'inside' },
  "cluster record lock over WebSocket: a grant's deadline anchored at the request's send",
  websocketTransport,
);
