/**
 * The harness's reading of a holder's first message (docs/holder-protocol.md, section 1): a `ready`
 * handshake it can work with, or a `load-error` turned into an error that names the fix.
 */
import { UsageError } from '../core/errors.ts';
import { HOLDER_PROTOCOL_VERSION, type FromHolder } from './holder-protocol.ts';

/** What is wrong with a `ready` handshake ("sent no runtime", …), or undefined when nothing is. */
export function handshakeProblem(message: object): string | undefined {
  const ready = message as Record<string, unknown>;
  const missing = (['protocol', 'language', 'runtime', 'pid', 'members'] as const).filter(
    (f) => ready[f] === undefined,
  );
  if (missing.length > 0)
    return `sent a handshake without ${missing.map((f) => `"${f}"`).join(', ')}: its SDK must send every required field`;
  if (ready.protocol !== HOLDER_PROTOCOL_VERSION) {
    return `speaks holder protocol ${JSON.stringify(ready.protocol)}, this harness speaks ${HOLDER_PROTOCOL_VERSION}: use the SDK shipped with this version of lock-oracles`;
  }
  if (!Array.isArray(ready.members) || ready.members.some((m) => typeof m !== 'string')) {
    return `sent "members" that is not a list of member names`;
  }
  if (typeof ready.pid !== 'number') return `sent a "pid" that is not a number`;
  return undefined;
}

/** Debian's package for a Python module a target imports, where it has one (the others: pip in a venv, with --python). */
const PYTHON_PACKAGES: Record<string, string> = {
  redis: 'python3-redis',
  psycopg: 'python3-psycopg',
  psycopg_pool: 'python3-psycopg-pool',
  psycopg2: 'python3-psycopg2',
  filelock: 'python3-filelock',
  kazoo: 'python3-kazoo',
  etcd3: 'python3-etcd3',
};

/** A target that would not load: a usage error, with the install line when a module is missing. */
export function loadError(
  targetPath: string,
  message: Extract<FromHolder, { t: 'load-error' }>,
  interpreter?: string,
): Error {
  const text = `could not load the target ${targetPath}:\n${message.message}`;
  if (message.missing === undefined && message.code === undefined) return new Error(text);
  const install = message.missing === undefined ? undefined : PYTHON_PACKAGES[message.missing.split('.')[0]!];
  const fix =
    message.missing === undefined
      ? ''
      : install && interpreter === '/usr/bin/python3'
        ? `\nInstall it: sudo apt-get install ${install} (or pass --python with an interpreter that has it, e.g. a venv's bin/python)`
        : `\nThe holders ran ${interpreter ?? 'the interpreter'}, which lacks the module "${message.missing}": install it there (${interpreter ?? 'python3'} -m pip install …)${install ? `, or use Debian's: sudo apt-get install ${install} and --python /usr/bin/python3` : ''}`;
  return new UsageError(`${text}${fix}`);
}
