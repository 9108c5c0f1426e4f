/**
 * A process's own wall and monotonic clocks, offset from the machine's: the process starts with
 * LD_PRELOAD=clock-offset.so and two offset files (./offset-file.ts), one for the wall clock
 * (CLOCK_REALTIME: Date in Node) and one for the monotonic clocks (CLOCK_MONOTONIC and kin: what
 * libuv's uv_hrtime reads, so process.hrtime, performance.now and the event loop's timers). Each
 * file can be rewritten while the process runs; the next read of that clock sees the new offset.
 */
import { join } from 'node:path';
import { clockOffsetLibrary } from './build.ts';
import { OffsetFile } from './offset-file.ts';

export interface ClockOffsets {
  /** The wall clock's offset from the machine's, ms. */
  wallMs: number;
  /** The monotonic clocks' offset from the machine's, ms. */
  monotonicMs: number;
}

export class ProcessClock {
  readonly #wall: OffsetFile;
  readonly #monotonic: OffsetFile;

  private constructor(
    readonly library: string,
    dir: string,
    name: string,
  ) {
    this.#wall = new OffsetFile(join(dir, `${name}.wall-offset-ms`));
    this.#monotonic = new OffsetFile(join(dir, `${name}.monotonic-offset-ms`));
    this.#wall.write(0);
    this.#monotonic.write(0);
  }

  /** A clock for process `name`, its offset files in `dir` (both 0 until set). Builds the library when missing. */
  static async create(dir: string, name: string): Promise<ProcessClock> {
    return new ProcessClock(await clockOffsetLibrary(), dir, name);
  }

  /** The environment the process must start with. */
  get env(): Record<string, string> {
    return {
      LD_PRELOAD: this.library,
      LOCK_ORACLES_CLOCK_FILE: this.#wall.path,
      LOCK_ORACLES_MONOTONIC_CLOCK_FILE: this.#monotonic.path,
    };
  }

  get offsets(): ClockOffsets {
    return { wallMs: this.#wall.offsetMs, monotonicMs: this.#monotonic.offsetMs };
  }

  set(offsets: Partial<ClockOffsets>): void {
    if (offsets.wallMs !== undefined) this.#wall.write(offsets.wallMs);
    if (offsets.monotonicMs !== undefined) this.#monotonic.write(offsets.monotonicMs);
  }

  /** In words, for the evidence. */
  get mechanism(): string {
    return `LD_PRELOAD clock-offset library (${this.library}): wall-clock reads shifted by the ms in ${this.#wall.path}, monotonic reads (CLOCK_MONOTONIC, _RAW, _COARSE, BOOTTIME) by the ms in ${this.#monotonic.path}`;
  }
}
