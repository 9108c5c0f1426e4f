/**
 * The conformance suite for a holder shim (docs/holder-protocol.md, section 5): drives a holder
 * process for a target over the raw protocol, with no store, and checks the handshake's required
 * fields, every request kind (init, call, effect-reply, seam-reply, abort, shutdown, close,
 * selftest), an effect's definite and indefinite outcomes, the error codes, and a torn last line.
 * Each failed check names the missing piece. Any language's shim runs it before its first oracle.
 */
import type { ChildProcess } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { compileHolderModules, type HolderModules } from './holder.ts';
import { spawnHolderProcess, spawnShimHolder } from './holder-command.ts';
import { HolderPipes } from './holder-pipes.ts';
import { handshakeProblem } from './handshake.ts';

/** How long one answer may take before the check fails (a loaded machine is slow, not broken). */
const ANSWER_MS = 20_000;

export interface Check {
  name: string;
  ok: boolean;
  /** What is missing or wrong, when not ok. */
  problem?: string;
}

type Message = Record<string, unknown> & { t: string };

/** One holder process spoken to over the protocol, every message it sent kept in order. */
class RawHolder {
  readonly received: Message[] = [];
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  readonly pipes: HolderPipes;
  #waiters: Array<() => void> = [];

  constructor(readonly process: ChildProcess) {
    this.exited = new Promise((resolve) => process.once('close', (code, signal) => resolve({ code, signal })));
    this.pipes = new HolderPipes(
      process,
      (message) => {
        this.received.push(message as Message);
        for (const wake of this.#waiters.splice(0)) wake();
      },
      (line) => this.received.push({ t: 'bad-line', line }),
    );
  }

  /** The first message (from `from` on) that `match` accepts, or undefined after ANSWER_MS. */
  async next(match: (m: Message) => boolean, from = 0): Promise<Message | undefined> {
    const deadline = Date.now() + ANSWER_MS;
    for (;;) {
      const found = this.received.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline) return undefined;
      await Promise.race([
        new Promise<void>((wake) => this.#waiters.push(wake)),
        new Promise((r) => setTimeout(r, 200)),
        this.exited,
      ]);
    }
  }

  result(id: number): Promise<Message | undefined> {
    return this.next((m) => m.t === 'result' && m.id === id);
  }

  kill(): void {
    this.process.kill('SIGKILL');
  }
}

function start(modules: HolderModules, id: string): RawHolder {
  const child =
    modules.interpreter !== undefined
      ? spawnShimHolder(modules.interpreter, modules.args ?? [modules.entry, modules.target], {
          id,
          targetPath: modules.targetPath,
        })
      : spawnHolderProcess([modules.entry, modules.target, id, modules.targetPath]);
  return new RawHolder(child);
}

/** Runs every check against the shim `targetPath` runs in; `modules` overrides how it starts (the suite's own tests). */
export async function runConformance(targetPath: string, modules?: HolderModules): Promise<Check[]> {
  const started = modules ?? (await compileHolderModules(targetPath));
  const checks: Check[] = [];
  const check = (name: string, problem: string | undefined) =>
    checks.push(problem === undefined ? { name, ok: true } : { name, ok: false, problem });
  const holder = start(started, 'A');
  try {
    await converse(holder, check);
  } finally {
    holder.kill();
    await holder.exited;
  }
  const torn = start(started, 'B');
  try {
    await tornLine(torn, check);
  } finally {
    torn.kill();
    await torn.exited;
  }
  return checks;
}

async function converse(holder: RawHolder, check: (name: string, problem: string | undefined) => void) {
  const ready = await holder.next((m) => m.t === 'ready' || m.t === 'load-error');
  if (!ready || ready.t !== 'ready') {
    check(
      'handshake',
      ready ? `the target did not load: ${String(ready.message)}` : `no "ready" within ${ANSWER_MS} ms`,
    );
    return;
  }
  check('handshake', handshakeProblem(ready));
  check(
    'handshake pid',
    ready.pid === holder.process.pid
      ? undefined
      : `"pid" is ${String(ready.pid)}, the process is ${holder.process.pid}: the holder must be the process the harness started (exec, no wrapper)`,
  );
  const members = Array.isArray(ready.members) ? (ready.members as string[]) : [];
  let nextId = 1;
  const request = async (message: Record<string, unknown>) => {
    const id = nextId++;
    holder.pipes.send({ ...message, id });
    return holder.result(id);
  };
  const init = await request({
    t: 'init',
    init: { url: 'redis://127.0.0.1:1', key: 'conformance', ttlMs: 1000, params: { n: 1 } },
  });
  check(
    'init',
    init?.ok === true
      ? undefined
      : `init did not answer ok: ${String(init?.error ?? 'no result')} (use a target whose connect needs no store, e.g. sdk/python/conformance_target.py)`,
  );
  if (init?.ok !== true) return;

  const log = await request({ t: 'selftest', op: 'log', message: 'conformance log line' });
  const logged = holder.received.some((m) => m.t === 'log' && m.message === 'conformance log line');
  check('log', log?.ok === true && logged ? undefined : 'env.log did not send a "log" message with the text');

  const outcomes = [
    { reply: { outcome: 'definite', receipt: { accepted: true, seq: 1 } }, want: { accepted: true, seq: 1 } },
    {
      reply: { outcome: 'definite', receipt: { accepted: false, seq: 2, reason: 'stale fence' } },
      want: { accepted: false, seq: 2, reason: 'stale fence' },
    },
    { reply: { outcome: 'indefinite', reason: 'conformance' }, want: { raised: 'indefinite' } },
  ];
  for (const [index, { reply, want }] of outcomes.entries()) {
    const from = holder.received.length;
    const id = nextId++;
    holder.pipes.send({
      t: 'selftest',
      id,
      op: 'effect',
      name: `probe ${index + 1}`,
      detail: { fence: 7, value: { n: index } },
    });
    const effect = await holder.next((m) => m.t === 'effect', from);
    const name = `effect ${reply.outcome}${'receipt' in reply ? (reply.receipt?.accepted ? ' accepted' : ' rejected') : ''}`;
    if (!effect) {
      check(name, 'env.effect sent no "effect" message');
      continue;
    }
    const detail = effect.detail as { fence?: unknown; value?: unknown } | undefined;
    if (detail?.fence !== 7 || !isDeepStrictEqual(detail.value, { n: index })) {
      check(
        `${name}: fence and value`,
        `the "effect" message's detail is ${JSON.stringify(detail)}: it must carry the fence (7) and the value`,
      );
    }
    holder.pipes.send({ t: 'effect-reply', id: effect.id, ...reply });
    const result = await holder.result(id);
    const got = JSON.stringify(result?.value);
    check(
      name,
      result?.ok === true && isDeepStrictEqual(result.value, want)
        ? undefined
        : reply.outcome === 'indefinite'
          ? `effect's indefinite outcome came back as ${got ?? String(result?.error)}: raise the SDK's indefinite error instead of returning a receipt`
          : `effect's definite outcome came back as ${got ?? String(result?.error)}, expected ${JSON.stringify(want)}: return the receipt's accepted, seq and reason`,
    );
  }

  const seamFrom = holder.received.length;
  const seamId = nextId++;
  holder.pipes.send({ t: 'selftest', id: seamId, op: 'seam', name: 'conformance:seam' });
  const seam = await holder.next((m) => m.t === 'seam', seamFrom);
  if (!seam) check('seam', 'env.seam sent no "seam" message');
  else {
    await new Promise((r) => setTimeout(r, 300));
    const early = holder.received.some((m) => m.t === 'result' && m.id === seamId);
    holder.pipes.send({ t: 'seam-reply', id: seam.id });
    const done = await holder.result(seamId);
    check(
      'seam',
      early
        ? 'env.seam returned before its "seam-reply": it must block until the harness answers'
        : done?.ok === true
          ? undefined
          : 'env.seam did not return after its "seam-reply"',
    );
  }

  const raised = await request({ t: 'selftest', op: 'raise', message: 'conformance raise' });
  check(
    'error: threw',
    raised?.ok === false && raised.code === 'threw' && String(raised.error).includes('conformance raise')
      ? undefined
      : `a member's exception came back as ${JSON.stringify(raised)}: answer ok false, code "threw", with its message`,
  );
  const missing = await request({ t: 'call', member: 'noSuchMember', args: [] });
  check(
    'error: no-member',
    missing?.ok === false && missing.code === 'no-member'
      ? undefined
      : `a call of a member the target lacks came back as ${JSON.stringify(missing)}: answer code "no-member"`,
  );

  if (members.includes('acquire')) {
    const acquired = await request({ t: 'call', member: 'acquire', args: [] });
    const lease = acquired?.value as { leaseId?: unknown } | null | undefined;
    check(
      'call acquire',
      acquired?.ok === true && (lease === null || typeof lease?.leaseId === 'number')
        ? undefined
        : `acquire came back as ${JSON.stringify(acquired)}: answer null or { leaseId, token?, fence? }`,
    );
    if (members.includes('release')) {
      const unknown = await request({ t: 'call', member: 'release', args: [], leaseId: 987654 });
      check(
        'error: unknown-lease',
        unknown?.ok === false && unknown.code === 'unknown-lease'
          ? undefined
          : `a release of a lease never issued came back as ${JSON.stringify(unknown)}: answer code "unknown-lease"`,
      );
      if (typeof lease?.leaseId === 'number') {
        const released = await request({ t: 'call', member: 'release', args: [], leaseId: lease.leaseId });
        check(
          'call release',
          released?.ok === true
            ? undefined
            : `release of lease ${lease.leaseId} came back as ${JSON.stringify(released)}`,
        );
      }
    }
  }
  holder.pipes.send({ t: 'abort' });
  const shutdown = await request({ t: 'shutdown' });
  check(
    'shutdown',
    shutdown?.ok === true ? undefined : `shutdown came back as ${JSON.stringify(shutdown)}: call close and answer ok`,
  );
  const close = await request({ t: 'close' });
  const exit = await Promise.race([holder.exited, new Promise<undefined>((r) => setTimeout(r, ANSWER_MS))]);
  check(
    'close',
    close?.ok === true && exit?.code === 0
      ? undefined
      : `close came back as ${JSON.stringify(close)} and the process ${exit ? `exited ${exit.code ?? exit.signal}` : 'did not exit'}: answer ok, then exit 0`,
  );
  const bad = holder.received.filter((m) => m.t === 'bad-line');
  check(
    'fd 4 carries only protocol lines',
    bad.length === 0
      ? undefined
      : `fd 4 had ${bad.length} line(s) that are not JSON objects: ${JSON.stringify(bad[0])}`,
  );
}

async function tornLine(holder: RawHolder, check: (name: string, problem: string | undefined) => void) {
  const ready = await holder.next((m) => m.t === 'ready' || m.t === 'load-error');
  if (ready?.t !== 'ready') return;
  holder.pipes.sendRaw('{"t":"call","id":77,"member":"noSuchMember","args":[]}'.slice(0, 30), true);
  const exit = await Promise.race([holder.exited, new Promise<undefined>((r) => setTimeout(r, ANSWER_MS))]);
  const actedOn = holder.received.some((m) => m.t === 'result' && m.id === 77);
  check(
    'torn line, then end of fd 3',
    exit?.code === 0 && !actedOn
      ? undefined
      : `after a torn last line and the end of fd 3 the holder ${exit ? `exited ${exit.code ?? exit.signal}` : 'kept running'}${actedOn ? ' and answered the torn request' : ''}: drop the torn line and exit 0 at end of file`,
  );
}
