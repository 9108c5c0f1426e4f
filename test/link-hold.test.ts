/**
 * A hold on a cluster's link (src/wire/link-faults.ts LinkHold) takes the nth message that matches
 * while it is armed, and none once it was released: a point whose message never came (A took
 * another path) is disarmed when A's part ends, and must not catch a later message of the run (V317
 * stepped a node's clock there, in the middle of the legs that followed).
 */
import { describe, expect, test } from 'vitest';
import { FaultLog } from '../src/core/fault-log.ts';
import { History } from '../src/core/history.ts';
import { LinkHold } from '../src/wire/link-faults.ts';
import type { LinkMessage } from '../src/wire/link-match.ts';

const request = (n: number): LinkMessage => ({
  from: 'n2',
  to: 'n1',
  n,
  body: { type: 'request' },
  text: '{"type":"request"}',
  type: 'request',
});

describe('a hold on a link', () => {
  test('takes the nth matching message while armed', () => {
    const hold = new LinkHold({ from: 'n2', to: 'n1', type: 'request', nth: 2 }, new FaultLog(new History()));
    expect(hold.takes(request(1))).toBe(false);
    expect(hold.takes(request(2))).toBe(true);
    expect(hold.armed).toBe(true);
  });

  test('released before it held anything, it takes no later message', () => {
    const hold = new LinkHold({ from: 'n2', to: 'n1', type: 'request', nth: 1 }, new FaultLog(new History()));
    hold.release();
    expect(hold.armed).toBe(false);
    expect(hold.takes(request(1))).toBe(false);
    expect(hold.holding).toBe(false);
  });
});
