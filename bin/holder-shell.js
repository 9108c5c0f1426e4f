/**
 * A holder process started by the launcher (bin/lock-oracles.js) before the CLI knows its target,
 * so that node boots while the CLI loads: the first run's first holder is then ready about as soon
 * as that run begins. It is still a fresh process, used by one run only. The harness's first
 * message turns it into a holder (src/holder/holder.ts): the command line it would have been
 * started with, and the compiled holder entry to import. Unused, it ends with the CLI.
 */
process.once('message', (message) => {
  if (!message || message.t !== 'become') process.exit(1);
  process.argv.splice(1, Infinity, ...message.argv);
  import(message.entryUrl).catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  });
});
process.once('disconnect', () => process.exit(0));
