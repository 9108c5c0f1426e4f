/**
 * A target call that threw where nothing in the scenario provoked it ends the run as ERROR ("the
 * target broke") — unless the throw is the store family's own word for a lost connection or session
 * (StoreFamily.connectionLost: ZooKeeper's CONNECTION_LOSS). Then the holder's client lost the store,
 * which a CPU-starved process on a loaded machine does with a sub-second session: nothing about the
 * lock was shown either way, so the run is INCONCLUSIVE with what happened and what to try.
 */
import { TargetCallError } from '../../core/errors.ts';
import { nothingProven, type Check, type Judgement } from '../../core/judgement.ts';
import { familyOf } from '../../families/index.ts';
import type { StoreKind } from '../../stores/types.ts';

/** The INCONCLUSIVE judgement for `error` when it is a lost connection to a `store` store; undefined otherwise. */
export function connectionLostJudgement(error: unknown, store: StoreKind, ttlMs: unknown): Judgement | undefined {
  const lost = familyOf(store).connectionLost;
  if (!(error instanceof TargetCallError) || !lost?.test(error.message)) return undefined;
  const check: Check = {
    name: 'every holder kept its connection to the store where nothing in the scenario touched it',
    held: false,
    detail: `${error.message.split('\n')[0]} — the client lost its ${store} connection or session on its own (a loaded machine, or a session near the store's floor${typeof ttlMs === 'number' ? `: --ttl ${ttlMs}` : ''}); run again, or with a longer --ttl`,
  };
  return {
    preconditions: [check],
    property: {
      name: 'not judged',
      held: true,
      detail: 'not judged: a holder lost its store connection',
      offending: [],
    },
    counts: {},
    explanation: nothingProven([check])!,
  };
}
