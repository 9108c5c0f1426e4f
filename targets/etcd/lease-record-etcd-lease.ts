// GOOD for V317 (ORACLES.md row V317): the same lease record in an etcd key (lease-record.ts), attached to an etcd lease of the TTL and taken only once etcd removed it: the member's lease clock alone says when it ends, whatever the holders' clocks say. Twin of lease-record-holder-clock.ts.
import { defineTarget } from '../contract.ts';
import { leaseRecordTarget } from './lease-record.ts';

export default defineTarget(
  leaseRecordTarget(
    'etcd-lease',
    'etcd3: a { owner, expiresAt } record on an etcd lease of the TTL, taken once etcd removed it',
  ),
);
