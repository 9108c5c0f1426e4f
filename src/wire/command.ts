/**
 * A command as the wire proxy recognises it in a holder's outgoing byte stream, and the pattern a
 * hold uses to pick one out ("this holder's DEL", "its EVALSHA of the compare-and-delete script",
 * "its pg_advisory_unlock").
 */
import { createHash } from 'node:crypto';

/** `grpc`: gRPC over HTTP/2 (etcd), src/wire/grpc-framer.ts; `zookeeper`: ZooKeeper's jute packets, src/wire/zk-framer.ts. */
export type WireProtocol = 'redis' | 'postgres' | 'grpc' | 'zookeeper';

export interface WireCommand {
  readonly protocol: WireProtocol;
  /** Redis: the command name upper-cased ("DEL", "EVALSHA"). Postgres: "Query" (simple) or "Bind" (extended). gRPC: the RPC ("KV/Txn"). ZooKeeper: the request type ("delete", "ping"). */
  readonly name: string;
  /** Redis: the arguments after the name. Postgres: the bound parameters (binary ones as hex). */
  readonly args: readonly string[];
  /** Postgres: the SQL text. Redis: the command line ("DEL lock:k"), arguments shortened. */
  readonly text: string;
  /** Redis EVAL / EVALSHA / SCRIPT LOAD: the script body, when the proxy has seen it. */
  readonly script?: string;
  /** Redis EVAL / EVALSHA / SCRIPT LOAD: the script's SHA1. */
  readonly sha?: string;
}

/** What a hold looks for. Every given field must match; an empty pattern matches every command. */
export interface CommandPattern {
  /** Command names, case-insensitive: "DEL", ["EVAL", "EVALSHA"], "PEXPIRE"; gRPC: "Lease/LeaseKeepAlive". */
  command?: string | readonly string[];
  /** A substring of, or a regex over, the command text (Postgres: the SQL, e.g. "pg_advisory_unlock"). */
  text?: string | RegExp;
  /** EVAL / EVALSHA: a substring of, or a regex over, the script body. A literal body also matches its SHA. */
  script?: string | RegExp;
  /** EVALSHA: the script's SHA1 (40 hex digits). */
  sha?: string;
  /** The command names this key: one of its arguments (Redis, or a Postgres Bind parameter) is it, or its text contains it. */
  naming?: string;
  /** Redis: one of the command's arguments is exactly this key (the lock's key, not some other). */
  key?: string;
  /** The command's arguments pass this test (`what` says which, for the evidence): a hash field cleared, say. */
  args?: { what: string; test(args: readonly string[]): boolean };
}

/** Whether the command names `key` (an argument, a bound parameter, or its text): what --explore counts as a command on the lock. */
export function namesKey(command: WireCommand, key: string): boolean {
  return command.args.includes(key) || command.text.includes(key);
}

/** The same patterns, narrowed to commands with `key` exactly among their arguments (the lock's key, not a job's data key that merely contains it). */
export function onKey(patterns: readonly CommandPattern[], key: string): CommandPattern[] {
  return patterns.map((pattern) => ({ ...pattern, key }));
}

export function sha1(body: string): string {
  return createHash('sha1').update(body).digest('hex');
}

/**
 * Scripts seen in EVAL and SCRIPT LOAD through any proxy in this process, by SHA, so an EVALSHA
 * can be matched by its body. (ioredis sends EVALSHA first and EVAL only after NOSCRIPT.)
 */
const knownScripts = new Map<string, string>();

export function rememberScript(body: string): string {
  const sha = sha1(body);
  if (knownScripts.size < 10_000) knownScripts.set(sha, body);
  return sha;
}

export function scriptForSha(sha: string): string | undefined {
  return knownScripts.get(sha.toLowerCase());
}

function matchesText(value: string | undefined, want: string | RegExp): boolean {
  if (value === undefined) return false;
  return typeof want === 'string' ? value.includes(want) : want.test(value);
}

export function matchesPattern(command: WireCommand, pattern: CommandPattern): boolean {
  if (pattern.command !== undefined) {
    const names = typeof pattern.command === 'string' ? [pattern.command] : pattern.command;
    if (!names.some((name) => name.toUpperCase() === command.name.toUpperCase())) return false;
  }
  if (pattern.text !== undefined && !matchesText(command.text, pattern.text)) return false;
  if (pattern.sha !== undefined && command.sha !== pattern.sha.toLowerCase()) return false;
  if (pattern.naming !== undefined && !namesKey(command, pattern.naming)) return false;
  if (pattern.key !== undefined && !command.args.includes(pattern.key)) return false;
  if (pattern.args !== undefined && !pattern.args.test(command.args)) return false;
  if (pattern.script !== undefined) {
    const bySha = typeof pattern.script === 'string' && command.sha === sha1(pattern.script);
    if (!bySha && !matchesText(command.script, pattern.script)) return false;
  }
  return true;
}

/** A pattern as one line for the evidence. */
export function describePattern(pattern: CommandPattern): string {
  const parts: string[] = [];
  if (pattern.command !== undefined)
    parts.push(typeof pattern.command === 'string' ? pattern.command : pattern.command.join('|'));
  if (pattern.text !== undefined) parts.push(`text ~ ${String(pattern.text)}`);
  if (pattern.script !== undefined) parts.push(`script ~ ${String(pattern.script).slice(0, 60)}`);
  if (pattern.sha !== undefined) parts.push(`sha ${pattern.sha}`);
  if (pattern.naming !== undefined) parts.push(`naming ${pattern.naming}`);
  if (pattern.key !== undefined) parts.push(`on key ${pattern.key}`);
  if (pattern.args !== undefined) parts.push(pattern.args.what);
  return parts.length ? parts.join(', ') : 'any command';
}
