/** What V319's play records for its judge: the fleet, how the store's clock was moved, and each simulated day as it ran. */
import type { DayStop } from '../../scenarios/simulated-day.ts';

export interface V319Observations {
  /** The replicas' ids (R1, R2, ...). */
  replicas: string[];
  /** How the store's clock was stepped with the simulated one (the store clock's mechanism). */
  storeClockMechanism: string;
  /** Each day simulated, in order; a day stopped by a budget ends the run there. */
  days: DayObservation[];
  /** The days not simulated after a stopped day, "Zone YYYY-MM-DD". */
  skipped: string[];
}

export interface DayObservation {
  zone: string;
  /** The local date, YYYY-MM-DD. */
  date: string;
  /** Local 00:00 of the date, epoch ms. */
  startMs: number;
  /** The history event (its `i`) that sums the day up: its fires, advances and timers. */
  summaryEvent: number;
  /** Each fire the resource received, with the simulated instant it was for (epoch ms) and its effect's seq. */
  fires: Array<{ replica: string; simMs: number; seq: number }>;
  /** Replicas whose scheduler had no timer pending once schedule() returned. */
  unarmed: string[];
  /** Replicas whose work had not settled within --settle-timeout, with the simulated instant. */
  unsettled: Array<{ replica: string; simMs: number }>;
  /** The store's clock minus the simulated one, read at the day's start and end and after each instant that did work: how many readings, and the largest by size (ms). */
  storeSkew: { readings: number; maxAbsMs: number };
  /** The store's clock at the day's start and end, epoch ms. */
  storeStartMs: number;
  storeEndMs: number;
  /** The simulated instant the day ended (its last instant, or where it was stopped). */
  endedMs: number;
  /** Real ms the day took. */
  wallMs: number;
  /** Instants at which fired timers started async work. */
  workingAdvances: number;
  /** Timers each replica ran this day. */
  timers: Record<string, number>;
  /** CPU ms each replica spent on this day's timers. */
  cpuMs: Record<string, number>;
  /** Set when the day was stopped before its end (--cpu-budget, or the day's real-time budget, spent); null when it ran to its end. */
  stopped: DayStop | null;
}
