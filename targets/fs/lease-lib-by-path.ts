// BAD for V310 on --store fs (explored): the lease-file library (lease-lib.ts) before its fix, bound through its public API only. Its renewal and release read the record, check it is this process's, then act by pathname: a write held after its check lands over a successor's record, an rm held after its compare removes it. The library keeps the owner id it writes to itself, so the token reported is its handle's id, which the store never holds: the harness tells whose record is there from the holders' own calls (the inode each one's create left, the last write).
import { leaseLibTarget } from './lease-lib-target.ts';

export default leaseLibTarget(
  { fenced: false },
  'lease-file library keeping its owner id to itself ({ ownerId, expiresAt }, created wx); renewal: read, check, writeFile by path; release: read, compare, rm by path',
);
