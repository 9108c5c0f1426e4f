/**
 * The stage that judges: the oracle's pure judge over what the play observed, the history and the
 * resource's effects (or the request's own play's judgement), then the rules every run shares: an
 * explored point whose fault could not land there is left out, and a holder that died on its own
 * makes the run INCONCLUSIVE.
 */
import { nothingProven, type Check, type Judgement } from '../../core/judgement.ts';
import { judgeRun } from '../../oracle/definition.ts';
import type { Holder } from '../../holder/holder.ts';
import type { Run } from './run.ts';

export function judge(run: Run, played: unknown): void {
  const { request, resolved, holders, facts } = run;
  const { oracle, params } = resolved;
  run.stage = `judging the ${oracle.id} scenario`;
  if (!request.play && oracle.judge) facts.observations = played;
  const { history, resource } = holders.ctx;
  const judged = request.play
    ? (played as Judgement)
    : judgeRun(oracle, { observations: played, history: history.events(), effects: resource.effects() }, params);
  facts.judgement = withHolderDeaths(withPointLanded(judged, facts.pointNotApplicable), holders.all());
}

/**
 * An explored point whose fault, landing itself, said it cannot land where it was put is left out,
 * never judged (whatever the oracle's flow went on to see there, the fault was not in force):
 * INCONCLUSIVE, not applicable, with the fault's reason. An oracle that judges its own landing
 * (V313) has said so already.
 */
export function withPointLanded(judgement: Judgement, cannotLand: string | undefined): Judgement {
  if (cannotLand === undefined || judgement.notApplicable !== undefined) return judgement;
  const check: Check = {
    name: "the explored point's fault landed where it was put",
    held: false,
    detail: cannotLand,
  };
  return {
    ...judgement,
    preconditions: [...judgement.preconditions, check],
    notApplicable: cannotLand,
    explanation: `${nothingProven([check])} The scenario's own reading: ${judgement.explanation}`,
  };
}

/**
 * A holder whose process ended on its own while the scenario played (a crash, process.exit in the
 * target) makes the run INCONCLUSIVE, whatever the property says: a dead holder's connections
 * are closed (a Postgres session's locks are dropped with it), and a call it was running may have
 * stopped anywhere (a release that crashed may never have sent its delete), so what the store
 * showed afterwards need not be the target's doing. An end the harness asked for (close, a SIGKILL
 * fault) does not count.
 */
function withHolderDeaths(judgement: Judgement, holders: readonly Holder[]): Judgement {
  const dead = holders.flatMap((h) => {
    const how = h.endedOnItsOwn;
    return how ? [`${h.id} (${how})`] : [];
  });
  if (!dead.length) return judgement;
  const check: Check = {
    name: 'every holder process lived through the scenario',
    held: false,
    detail: `holder ${dead.join(', ')} ended on its own before the judgement: its connections closed with it and a call it was running may have stopped anywhere, so what the store showed afterwards need not be the target's doing`,
  };
  // A holder that died may have changed what the store showed: a point's "cannot apply" no longer stands.
  const { notApplicable: _, ...judged } = judgement;
  return {
    ...judged,
    preconditions: [...judgement.preconditions, check],
    explanation: `${nothingProven([check])} The scenario's own reading: ${judgement.explanation}`,
  };
}
