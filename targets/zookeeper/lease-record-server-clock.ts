// GOOD for V317 on --store zookeeper (ORACLES.md row V317): the same lease record node (lease-record.ts), its lapse judged on the server's clock alone: the node's mtime + TTL against the mtime of the contender's own probe node written just before. Twin of lease-record-holder-clock.ts.
import { defineTarget } from '../contract.ts';
import { zkLeaseRecordTarget } from './lease-record.ts';

export default defineTarget(
  zkLeaseRecordTarget(
    'server-clock',
    "zookeeper: a { owner, expiresAt } record node, lapsed when its mtime + TTL is below the server's clock",
  ),
);
