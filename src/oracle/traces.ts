/** The traces the explorable oracles share: which of A's calls run alone, and under which part. */
import type { CallOutcome, Holder } from '../holder/holder.ts';
import type { Scenario } from './scenario.ts';
import type { Tracer } from './tracer.ts';

/** A acquires (traced as "acquire") and releases; the release is traced as "release" only when it is the part explored. */
export function traceAcquireRelease(traceRelease: boolean): (s: Scenario, tracer: Tracer) => Promise<void> {
  return async (s, tracer) => {
    const a = await tracer.holder(s);
    const lease = await tracer.part('acquire', () => a.acquire());
    if (lease) await (traceRelease ? tracer.part('release', () => a.release(lease)) : a.release(lease));
  };
}

/**
 * A runs `member` (its job, its leader loop); what A does until its first write is traced as
 * "until its first write", and from that write on as `member`. Returns the call, still running,
 * once A made that write (or the call ended first): the caller decides when the part ends
 * (`tracer.end()`). `within` bounds the wait for the first write.
 */
export async function traceFromFirstWrite(
  tracer: Tracer,
  a: Holder,
  member: string,
  within: (wait: Promise<unknown>) => Promise<unknown> = (wait) => wait,
): Promise<{ call: Promise<CallOutcome> }> {
  tracer.begin('until its first write');
  const first = a.holdNextEffect();
  const call = a.call(member);
  await within(Promise.race([first.reached, call]));
  tracer.begin(member);
  first.release();
  return { call };
}
