/**
 * The harness's named errors, in one module. Each has a stable `code` (for a caller that branches
 * on it) and a message that says what went wrong and what to do. How a run ends on each: a
 * UsageError (or ParamError, StoreUnavailableError, RowsFileError, turned into one) stops the
 * command before anything is judged, exit code 2; a TargetCallError ends a run as ERROR.
 */

/** The command or request is wrong: an unknown oracle, a bad option, a target without a member it needs. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly code = 'LOCK_ORACLES_USAGE';
}

/** A parameter's value is out of its declared range or of the wrong kind; the message names the option. */
export class ParamError extends Error {
  override name = 'ParamError';
  readonly code = 'LOCK_ORACLES_PARAM';
}

/** A store cannot be started here; `remedy` is the exact command to run. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  readonly code = 'LOCK_ORACLES_STORE_UNAVAILABLE';
  constructor(
    message: string,
    readonly remedy: string,
  ) {
    super(`${message}\n  To fix: ${remedy}`);
  }
}

/**
 * A target member failed in a way that makes the run meaningless (e.g. acquire threw): the run
 * ends as ERROR naming it. `when` says why the throw is the target's own error, not an answer the
 * scenario provoked (targets/contract.ts, "When a member throws").
 */
export class TargetCallError extends Error {
  override name = 'TargetCallError';
  readonly code = 'LOCK_ORACLES_TARGET_CALL';
  constructor(holder: string, member: string, error: string, when?: string) {
    super(`holder ${holder}: the target's ${member}() threw${when ? ` ${when}` : ''}: ${error}`);
  }
}

/** A settle rows file that cannot be read: every problem found, so one edit fixes them all. */
export class RowsFileError extends Error {
  override name = 'RowsFileError';
  readonly code = 'LOCK_ORACLES_ROWS_FILE';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `${file}: ${problems.length} problem(s), nothing was started:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}
