/**
 * A holder process started by the launcher (bin/lock-oracles.js) before the CLI knows its target,
 * so that node boots while the CLI loads: the first run's first holder is then ready about as soon
 * as that run begins. It is still a fresh process, used by one run only. The harness's first line
 * on fd 3 (the holder protocol's requests pipe, docs/holder-protocol.md) turns it into a holder
 * (src/holder/holder.ts): the command line it would have been started with, and the compiled holder
 * entry to import. The socket it read that line with, and anything read past it, are left for the
 * entry (src/holder/holder-pipes-child.ts), so that fd 3 has one reader. Unused, it ends with the CLI.
 *
 * Started with the compiled entry and target (`holder-shell.js <entry> <target>`, both found in the
 * compile cache by the launcher), it imports the entry at once, which loads the target as a holder
 * does at its start and then waits here for that line (src/holder/holder-entry.ts); the harness
 * sends it only when it compiled the same two modules (src/holder/holder-shell.ts).
 */
import { Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

const [entryAhead, targetAhead] = process.argv.slice(2);
/** Where the entry, imported ahead, waits for the `become` line: the harness's own command line for it. */
const BECOME_SLOT = Symbol.for('lock-oracles.holder-become');
let becomeAhead;
if (entryAhead && targetAhead) {
  globalThis[BECOME_SLOT] = new Promise((resolve) => (becomeAhead = resolve));
  // The command line a holder starts with (src/holder/holder.ts), less its id and its target's
  // name, which the `become` line brings.
  process.argv.splice(1, Infinity, entryAhead, targetAhead);
  import(pathToFileURL(entryAhead).href).catch(fail);
}

const input = new Socket({ fd: 3, readable: true, writable: false });
let text = '';
const onData = (chunk) => {
  text += chunk.toString();
  const newline = text.indexOf('\n');
  if (newline < 0) return;
  input.off('data', onData);
  input.off('end', onEnd);
  input.pause();
  let message;
  try {
    message = JSON.parse(text.slice(0, newline));
  } catch {
    process.exit(1);
  }
  if (!message || message.t !== 'become') process.exit(1);
  globalThis[Symbol.for('lock-oracles.holder-input')] = { socket: input, rest: text.slice(newline + 1) };
  if (becomeAhead) {
    // Never other modules than those loaded: the harness checks before it sends the line.
    const [entry, target] = message.argv;
    if (entry !== entryAhead || target !== targetAhead) process.exit(1);
    process.argv.splice(1, Infinity, ...message.argv);
    becomeAhead();
    return;
  }
  process.argv.splice(1, Infinity, ...message.argv);
  import(message.entryUrl).catch(fail);
};
const onEnd = () => process.exit(0);
input.on('data', onData);
input.once('end', onEnd);

function fail(error) {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
}
