// BAD for V315 with --contenders 3 (ORACLES.md row V315, a non-atomic election): a candidate GETs the leader key and, seeing it free, SETs it (PX, no NX); as leader it acts on its lease by its own clock, renewing with compare-and-pexpire. Two candidates that both saw the key free both win: the later SET overwrites the earlier winner's lease while that one still acts on it, so two leaders act at once until the earlier one's next renewal fails. With one candidate after the leader (the default --contenders 2) the election is sound and V315 PASSes. Its twin elect-set-nx.ts differs only in the election.
import { leaseLeader } from './lease-leader.ts';

export default leaseLeader({ atomicElection: false });
