/**
 * `lock-oracles init`: writes a target file that binds your lock helper, from two answers — the
 * client library and the helper's shape — given as flags, or asked when stdin is a terminal.
 *
 *   npm run oracle -- init --client ioredis --shape with-lock --helper ./src/lock.ts [--export withLock] [--out lock.target.ts]
 *   npm run oracle -- init --client pg --shape binding [--scope session|transaction|session-via-pool]
 *
 * Shapes: `with-lock` binds your own `withLock(client, key, ttlMs, fn)` through fromWithLock;
 * `binding` uses the ready binding for the library (targets/adapters/). The file imports the
 * adapters from 'lock-oracles' when that resolves from where it is written (the package is
 * installed in that project, or the file is inside this repository); otherwise by a path relative
 * to this repository.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { REPO_ROOT } from '../../run/registry.ts';
import { UsageError } from '../../core/errors.ts';
import { EXIT } from '../exit-codes.ts';
import { COMMAND } from '../../core/invocation.ts';
import { commandHelp } from '../options/help.ts';
import { unresolvedPackages } from '../../run/reference-packages.ts';
import { writeJavaGoTarget } from './init-java-go.ts';
import { CLIENTS, SCOPES, SHAPES } from '../options/table.ts';
import { toValue, useOf, type Values } from '../options/values.ts';
import { initPython, PYTHON_CLIENTS } from './init-python.ts';

/** The Node clients (the Python ones: init-python.ts). */
type Client = Exclude<(typeof CLIENTS)[number], (typeof PYTHON_CLIENTS)[number]>;

/** How each client is imported and built from the harness's URL (`url`). */
const CLIENT_CODE: Record<Client, { imports: string[]; build: string }> = {
  ioredis: { imports: ["import { Redis } from 'ioredis';"], build: 'new Redis(url)' },
  'node-redis': { imports: ["import { createClient } from 'redis';"], build: 'createClient({ url })' },
  redlock: {
    imports: ["import { Redis } from 'ioredis';", "import Redlock from 'redlock';"],
    build: 'new Redlock([new Redis(url)])',
  },
  '@sesamecare-oss/redlock': {
    imports: ["import { Redis } from 'ioredis';", "import { Redlock } from '@sesamecare-oss/redlock';"],
    build: 'new Redlock([new Redis(url)])',
  },
  pg: { imports: ["import pg from 'pg';"], build: 'new pg.Pool({ connectionString: url, max: 2 })' },
};

const isNodeClient = (c: string): c is Client => !(PYTHON_CLIENTS as readonly string[]).includes(c);
const NODE_CLIENTS = CLIENTS.filter(isNodeClient);

interface Answers {
  client: Client;
  shape: (typeof SHAPES)[number];
  helper?: string;
  exportName: string;
  scope: (typeof SCOPES)[number];
  out: string;
}

export async function init(values: Values<'init'>): Promise<number> {
  if (values.lang === 'python') return initPython(values);
  if (values.lang === 'java' || values.lang === 'go') {
    // --out's default names a TypeScript file; a Java or Go target has its own (LockTarget.java, lock_target.go).
    const path = writeJavaGoTarget(values.lang, values.out === 'lock.target.ts' ? undefined : values.out);
    console.error(
      `wrote ${path}; run it: ${COMMAND} ${values.lang === 'java' ? 'V314 --store postgres' : 'V310 --store redis'} --target ${relative(process.cwd(), path)}`,
    );
    return EXIT.PASS;
  }
  const ask = process.stdin.isTTY ? asker() : undefined;
  try {
    const chosen = values.client ?? (await askFor('client', NODE_CLIENTS, ask));
    if (!isNodeClient(chosen)) throw new UsageError(`--client ${chosen} is a Python library: add --lang python`);
    const client = chosen;
    const shape = values.shape ?? (await askFor('shape', SHAPES, ask));
    let helper = values.helper;
    if (shape === 'with-lock' && !helper) {
      if (!ask)
        throw new UsageError(
          `init --shape with-lock needs --helper <path to the module exporting your withLock>\n${commandHelp('init')}`,
        );
      helper = await ask.question('Path to the module that exports your withLock(client, key, ttlMs, fn): ');
    }
    // `npm run` runs in the package's root; paths the user typed are relative to where they typed them.
    const cwd = process.env.INIT_CWD ?? process.cwd();
    const answers: Answers = {
      client,
      shape,
      exportName: values.export,
      scope: values.scope,
      out: resolve(cwd, values.out),
      ...(helper ? { helper: resolve(cwd, helper) } : {}),
    };
    if (existsSync(answers.out) && !values.force)
      throw new UsageError(`${values.out} exists; pass --force to overwrite it or --out <another file>`);
    if (answers.helper && !existsSync(answers.helper)) throw new UsageError(`--helper ${helper}: no such file`);
    writeFileSync(answers.out, targetSource(answers));
    const oracles =
      shape === 'binding' && client === 'pg'
        ? 'V314 (lock), V312/V313/V315 with --store postgres (job, leader)'
        : 'V310/V311 (lock), V312/V313 (job), V315 (leader)';
    // The client library is the project's own (an install of lock-oracles does not carry redlock or redis).
    const missing = unresolvedPackages(answers.out, 'lock-oracles');
    const install = missing.length
      ? `It imports ${missing.join(', ')}, not installed where it lies yet: npm i -D ${missing.join(' ')}\n`
      : '';
    process.stdout.write(
      `wrote ${values.out}: it serves ${oracles}.\n${install}Try: ${COMMAND} V313 --target ${values.out}${client === 'pg' ? ' --store postgres' : ''}\n`,
    );
    return EXIT.PASS;
  } finally {
    ask?.close();
  }
}

function asker() {
  return createInterface({ input: process.stdin, output: process.stdout });
}

/** Asks for a missing choice at the terminal (none: the flag is required); the answer is checked as the flag would be. */
async function askFor<T extends string>(
  name: 'client' | 'shape',
  choices: readonly T[],
  ask: ReturnType<typeof asker> | undefined,
): Promise<T> {
  if (!ask)
    throw new UsageError(
      `init needs --${name} (${choices.join(' | ')}) when stdin is not a terminal\n${commandHelp('init')}`,
    );
  return toValue(name, (await ask.question(`${name} (${choices.join(' | ')}): `)).trim(), useOf(name, 'init')!) as T;
}

/** A relative import specifier from the target file to a module. */
function importPath(fromFile: string, toFile: string): string {
  const path = relative(dirname(fromFile), toFile).replaceAll('\\', '/');
  return path.startsWith('.') ? path : `./${path}`;
}

/** True when `import … from 'lock-oracles'` resolves from the file `out`. */
function packageResolvesFrom(out: string): boolean {
  try {
    createRequire(out).resolve('lock-oracles/package.json');
    return true;
  } catch {
    return false;
  }
}

export function targetSource(a: Answers): string {
  const fromPackage = packageResolvesFrom(a.out);
  const adapter = (file: string) =>
    fromPackage ? 'lock-oracles' : importPath(a.out, resolve(REPO_ROOT, 'targets/adapters', file));
  const { imports, build } = CLIENT_CODE[a.client];
  const lines = [
    `// Written by \`lock-oracles init --client ${a.client} --shape ${a.shape}\`; see docs/writing-targets.md in lock-oracles.`,
    ...imports,
  ];
  if (a.shape === 'with-lock') {
    const connect = a.client === 'node-redis' ? `({ url }) => ${build}.connect()` : `({ url }) => ${build}`;
    lines.push(
      `import { fromWithLock } from '${adapter('from-with-lock.ts')}';`,
      `import { ${a.exportName} } from '${importPath(a.out, a.helper!)}';`,
      '',
    );
    lines.push(`export default fromWithLock(${connect}, ${a.exportName});`);
  } else if (a.client === 'ioredis' || a.client === 'node-redis') {
    const binding = a.client === 'ioredis' ? 'ioredisSetNx' : 'nodeRedisSetNx';
    lines.push(
      `import { ${binding} } from '${adapter('redis-set-nx.ts')}';`,
      '',
      `export default ${binding}(({ url }) => ${build});`,
    );
  } else if (a.client === 'pg') {
    lines.push(
      `import { pgAdvisoryLock } from '${adapter('pg-advisory.ts')}';`,
      '',
      `export default pgAdvisoryLock(({ url }) => ${build}, { scope: '${a.scope}' });`,
    );
  } else {
    lines.push(
      `import { fromRedlock } from '${adapter('redlock.ts')}';`,
      '',
      `export default fromRedlock(({ url }) => ${build});`,
    );
  }
  return `${lines.join('\n')}\n`;
}
