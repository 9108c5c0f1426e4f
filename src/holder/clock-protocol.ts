/** What the harness can ask of a holder's own clock (src/holder/holder-clock.ts), and the replies. */

export type ClockCommand =
  /** Fake only `Date`: real now + offsetMs, flowing with real time. Monotonic time and timers stay real. */
  | { op: 'install-wall'; offsetMs: number }
  /** Set the wall clock to real now + offsetMs. */
  | { op: 'set-offset'; offsetMs: number }
  /** Move the wall clock by deltaMs (negative: back). */
  | { op: 'step'; deltaMs: number }
  /**
   * A simulated clock: `Date` and the timers (setTimeout, setInterval and their clears) are fake,
   * start at startMs and move only when the harness advances them. `zone` becomes the process's TZ.
   */
  | { op: 'install-sim'; startMs: number; zone: string }
  /**
   * Run the fake timers due up to toMs, one instant at a time, each instant's async work settled
   * (real time, at most settleTimeoutMs) before the next. Stop early once the advance has spent
   * maxCpuMs of this process's CPU or maxRealMs of real time (looked at every few hundred instants).
   * untilWork: stop at the first instant whose timers started async work that waits on I/O and
   * leave that work unsettled (reply at once, workLeft true): the harness catches the store's clock
   * up to that instant before it lets the work reach the store, then sends settle. A toMs behind
   * the clock runs nothing.
   */
  | {
      op: 'advance';
      toMs: number;
      settleTimeoutMs: number;
      maxCpuMs?: number;
      maxRealMs?: number;
      untilWork?: boolean;
    }
  /** Let the work an untilWork advance left at the current instant settle (at most settleTimeoutMs real). */
  | { op: 'settle'; settleTimeoutMs: number }
  /** Change nothing: answer with the clock as it is (to show an offset was still in force). */
  | { op: 'read' }
  /** Remove the fake clock: the process is back on the real clock. */
  | { op: 'uninstall' };

export interface ClockReply {
  /** The holder's wall clock (Date.now()) after the command. */
  wallMs: number;
  /** Its offset from the real clock (wall modes), or from the real clock at the reply (simulated). */
  offsetMs: number;
  /** The holder's monotonic clock (performance.now()) at the reply: unaffected by any of this. */
  monoMs: number;
  /**
   * The holder's raw monotonic clock (process.hrtime.bigint(), in ms) at the reply: CLOCK_MONOTONIC
   * is one clock for the whole machine, so against the harness's own reading it shows an offset a
   * process's clock library adds (a cluster node's, src/oracle/node-clock.ts), where performance.now()
   * (counted from the process's own start) hides an offset it had from the start.
   */
  hrtimeMs: number;
  /** Simulated mode: when the next fake timer is due (null: none pending). */
  nextTimerMs?: number | null;
  /** advance: fake timers that were due and ran. */
  fired?: number;
  /** advance, settle: promises the fired timers (and their work) started (0: they did no async work). */
  work?: number;
  /** advance, settle: whether all of that work had settled before the reply. */
  settled?: boolean;
  /** advance, settle: the simulated clock where it stopped. */
  nowMs?: number;
  /** advance with untilWork: it stopped at nowMs, whose timers started work it left unsettled. */
  workLeft?: boolean;
  /** advance: CPU ms (user + system) the holder process spent on it. */
  cpuMs?: number;
  /** advance: it stopped early because its maxCpuMs or maxRealMs was spent. */
  budgetSpent?: boolean;
}
