/** Labels on every store container the harness starts (docker ps -a --filter label=lock-oracles.store). */
export const STORE_LABEL = 'lock-oracles.store';
/** The run that started it (src/process/run-owner.ts). */
export const RUN_LABEL = 'lock-oracles.run';
/** Its owner process: pid and kernel start time; the reaper removes it once that process is gone. */
export const OWNER_PID_LABEL = 'lock-oracles.owner-pid';
export const OWNER_START_LABEL = 'lock-oracles.owner-start';
