/**
 * The Java and Go holders' start-up (docs/benchmarks.md, "Java and Go holders"): for each language,
 * the build of the protocol probe target with nothing cached (javac / go build), the cached build
 * (the cache lookup only), and from spawn to the shim's `ready` on fd 4 (the runtime's start: a
 * JVM, a Go binary), as the harness spawns a holder (setpriv, fds 3 and 4). Median of --runs N.
 *   npx tsx scripts/bench-holders-java-go.ts [--runs 5]
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { goHolder } from '../src/build/go-holder.ts';
import { holderCacheRoot } from '../src/build/holder-build-cache.ts';
import { javaHolder, type HolderLaunch } from '../src/build/java-holder.ts';
import { dieWithHarness } from '../src/process/die-with-harness.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5);
const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'sdk');
const builders = {
  java: () => javaHolder(join(FIXTURES, 'ProtocolProbe.java')),
  go: () => goHolder(join(FIXTURES, 'protocol_probe.go')),
};

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await work();
  return [performance.now() - start, value];
}

/** Spawn to the first line on fd 4 (the handshake), then end fd 3 so the holder exits. */
async function untilReady(launch: HolderLaunch): Promise<number> {
  const start = performance.now();
  const [command, args] = dieWithHarness(launch.command, launch.args);
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve) => (child.stdio[4] as Readable).once('data', () => resolve()));
  const ms = performance.now() - start;
  (child.stdio[3] as NodeJS.WritableStream).end();
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`load ${loadavg()[0]!.toFixed(1)}, ${runs} runs each`);
for (const [language, build] of Object.entries(builders)) {
  const fresh: number[] = [];
  const cached: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < runs; i++) {
    rmSync(join(holderCacheRoot(), language), { recursive: true, force: true });
    fresh.push((await timed(build))[0]);
    const [ms, launch] = await timed(build);
    if (!launch.cached) throw new Error(`${language}: the second build was not cached`);
    cached.push(ms);
    ready.push(await untilReady(launch));
  }
  console.log(
    `${language}: build ${median(fresh).toFixed(0)} ms, cached ${median(cached).toFixed(1)} ms, spawn to ready ${median(ready).toFixed(0)} ms (medians)`,
  );
}
console.log(`load ${loadavg()[0]!.toFixed(1)} at the end`);
