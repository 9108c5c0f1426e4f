// BAD for V317 (ORACLES.md row V317, holder against holder): a lease record in an etcd key whose expiresAt is the writer's Date.now() + TTL and is taken over when it is below the contender's own Date.now() (lease-record.ts): a contender whose clock runs ahead takes a live lease, one whose clock runs behind leaves a dead holder's lease stuck. Twin of lease-record-etcd-lease.ts.
import { defineTarget } from '../contract.ts';
import { leaseRecordTarget } from './lease-record.ts';

export default defineTarget(
  leaseRecordTarget(
    'holder-clock',
    "etcd3: a { owner, expiresAt } record, expiresAt on the writer's clock, taken over on the contender's",
  ),
);
