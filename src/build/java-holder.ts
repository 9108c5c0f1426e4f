/**
 * A Java target's holder: `javac` compiles the Java shim (sdk/java/LockOracles.java) with the
 * target (LockTarget.java), against the user's `--classpath` (Debian's /usr/share/java jars), into
 * the holder build cache (keyed by content: the shim's, the target's, every .java file beside the target's too,
 * since javac's -sourcepath compiles the helper classes the target uses from its own directory, and
 * each classpath jar's, not by any path) (holder-build-cache.ts), so a second run compiles nothing,
 * from any checkout; the holder is
 * then `java -cp <classes>:<classpath> LockOracles <target class>`, a real JVM the harness signals.
 * The classpath is the target's own `//CLASSPATH <jar>[:<jar>…]` lines (as JBang's `//DEPS`: the
 * target says what it needs) and then LOCK_ORACLES_CLASSPATH (`--classpath`), colon-separated.
 * A compile error is a usage error (exit 2) with javac's own lines: the file, the line, the fix; so
 * is a classpath jar that does not exist (named, with the install line), before javac runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.ts';
import { cachedHolderBuild, contentDigest } from './holder-build-cache.ts';
import { requireTool } from './toolchain.ts';

const SDK = fileURLToPath(new URL('../../sdk/java/LockOracles.java', import.meta.url));
const JDK = 'openjdk-17-jdk-headless';

/** How to start a built holder, and whether the build was already cached. */
export interface HolderLaunch {
  command: string;
  args: string[];
  cached: boolean;
}

/** Compiles (or finds cached) `target` with the shim and returns the `java` command line that runs it. */
export async function javaHolder(target: string, classpath: string[] = []): Promise<HolderLaunch> {
  const javac = requireTool('javac', 'Java', JDK);
  const java = requireTool('java', 'Java', JDK);
  const file = resolve(target);
  const source = readFileSync(file, 'utf8');
  const jars = [...declaredClasspath(source), ...classpath].map((entry) => resolve(dirname(file), entry));
  const missing = jars.filter((jar) => !existsSync(jar));
  if (missing.length > 0) {
    throw new UsageError(
      `${target}'s classpath names ${missing.join(', ')}, which ${missing.length === 1 ? 'does' : 'do'} not exist.\n` +
        `  To fix: install the library (the references' jars come from Debian: npm run setup installs ` +
        `libpostgresql-jdbc-java, libcurator-recipes-java, libzookeeper-java, libslf4j-java), or correct the ` +
        `//CLASSPATH line or --classpath`,
    );
  }
  const className = targetClass(file, source);
  const build = await cachedHolderBuild(
    'java',
    [readFileSync(SDK, 'utf8'), className, source, javac.stamp, ...jars.map(contentDigest), ...siblingSources(file)],
    async (dir) => {
      const { execa } = await import('execa');
      const compiled = await execa(
        javac.path,
        [
          '-d',
          dir,
          '-encoding',
          'UTF-8',
          '-cp',
          jars.join(':'),
          '-sourcepath',
          dirname(file),
          '-Xlint:none',
          SDK,
          file,
        ],
        { reject: false, all: true },
      );
      if (compiled.exitCode !== 0) {
        throw new UsageError(
          `javac could not compile ${target}:\n${compiled.all}\n  To fix: correct the line javac names` +
            (/package .* does not exist|cannot find symbol/.test(compiled.all ?? '')
              ? `; a library's classes come from --classpath (e.g. --classpath /usr/share/java/postgresql.jar)`
              : ''),
        );
      }
    },
  );
  return {
    command: java.path,
    // Serial GC and no C2: a holder lives seconds and must start fast under load. The shim wraps
    // its inherited fds 3 and 4 with FileDescriptor's private constructor (they may be sockets).
    args: [
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '--add-opens',
      'java.base/java.io=ALL-UNNAMED',
      '-cp',
      [build.dir, ...jars].join(':'),
      'LockOracles',
      className,
    ],
    cached: build.cached,
  };
}

/** The target's class: the file's name, in the file's package when it declares one. */
function targetClass(file: string, source: string): string {
  const name = basename(file, '.java');
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(source)?.[1];
  return pkg ? `${pkg}.${name}` : name;
}

/** The `//CLASSPATH a.jar:b.jar` lines of a target's source, in order. */
function declaredClasspath(source: string): string[] {
  return [...source.matchAll(/^\/\/CLASSPATH\s+(\S+)\s*$/gm)].flatMap((m) => m[1]!.split(':').filter(Boolean));
}

/** The classpath a run names beyond the target's own (LOCK_ORACLES_CLASSPATH, set from --classpath). */
export function javaClasspath(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.LOCK_ORACLES_CLASSPATH ?? '').split(':').filter(Boolean);
}

/** Every .java file beside the target, with its content: a helper class the target uses may change. */
function siblingSources(file: string): string[] {
  const dir = dirname(file);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.java'))
    .sort()
    .map((name) => `${name}\0${readFileSync(join(dir, name), 'utf8')}`);
}
