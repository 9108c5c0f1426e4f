// BAD for V317 on --store zookeeper (ORACLES.md row V317, holder against holder): a lease record in a persistent node whose expiresAt is the writer's Date.now() + TTL, taken over when it is below the contender's own Date.now() (lease-record.ts): a contender whose clock runs ahead takes a live lease, one whose clock runs behind leaves a dead holder's lease stuck. Twin of lease-record-server-clock.ts.
import { defineTarget } from '../contract.ts';
import { zkLeaseRecordTarget } from './lease-record.ts';

export default defineTarget(
  zkLeaseRecordTarget(
    'holder-clock',
    "zookeeper: a { owner, expiresAt } record node, expiresAt on the writer's clock, taken over on the contender's",
  ),
);
