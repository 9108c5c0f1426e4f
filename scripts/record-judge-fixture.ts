/**
 * Records one real run as a judge fixture: runs the oracle on the target against a real store, and
 * writes what its play observed (with the history, the effects, the parameters and the verdict) to
 * test/fixtures/judges/<ORACLE>/<name>.json, where test/judges/ re-judges it with no store and no
 * process. Usage:
 *   npx tsx scripts/record-judge-fixture.ts <name> <ORACLE> <target> [param=value ...] [store=<kind>] [topology=<shape>] [expect=PASS|FAIL|INCONCLUSIVE] [explore=1]
 * With explore=1 the run is an exploration (--explore, --first-fail) and the fixture is the point
 * its report shows: the minimal failing one, or the first with the exploration's verdict.
 * It refuses to write a fixture whose verdict is not the expected one (a loaded machine can make a
 * run INCONCLUSIVE: run it again).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOracle } from '../src/run/run-oracle.ts';
import { explore } from '../src/explore/explore.ts';
import type { StoreKind } from '../src/stores/types.ts';
import { fixtureOf, FIXTURES } from '../test/judges/recorded.ts';

const [name, oracle, target, ...rest] = process.argv.slice(2);
if (!name || !oracle || !target) {
  console.error(
    'usage: npx tsx scripts/record-judge-fixture.ts <name> <ORACLE> <target> [param=value ...] [store=<kind>] [expect=<verdict>] [explore=1]',
  );
  process.exit(2);
}
const pairs = Object.fromEntries(rest.map((arg) => arg.split(/=(.*)/s).slice(0, 2) as [string, string]));
const { store, topology, expect, explore: explored, ...params } = pairs;
const request = {
  oracle,
  target,
  params,
  ...(store ? { store: store as StoreKind } : {}),
  ...(topology ? { topology } : {}),
};
const record = explored
  ? (await explore({ ...request, firstFail: expect === 'FAIL' })).record
  : await runOracle(request);
if (record.observations === undefined) {
  console.error(`${oracle} recorded no observations: its definition has no judge yet (play, then judge)`);
  process.exit(1);
}
if (expect && record.verdict !== expect) {
  console.error(`expected ${expect}, got ${record.verdict}: ${record.explanation}`);
  process.exit(1);
}
const dir = join(FIXTURES, record.oracle.id);
mkdirSync(dir, { recursive: true });
const file = join(dir, `${name}.json`);
writeFileSync(file, `${JSON.stringify(fixtureOf(record), null, 1)}\n`);
console.log(`${file}: ${record.verdict} (${record.target.path})`);
