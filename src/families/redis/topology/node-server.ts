/**
 * How a topology node's server runs: a local process (local-node-server.ts) or a container
 * (container-node-server.ts). The node (redis-node.ts) says what to run; the runtime starts it and
 * carries out the faults on it, each in its own way (SIGSTOP or the cgroup freezer, SIGKILL or
 * docker kill -s KILL), and start it again on the same port (a new process, or the same container).
 */
import type { StoreClock, StoreKind } from '../../../stores/types.ts';

export interface NodeServerSpec {
  kind: StoreKind;
  /** e.g. "redis-server m1 :6400", for messages and cleanup. */
  label: string;
  port: number;
  /** The server's arguments after its binary, given the node's dir as the server sees it. */
  args(dir: string): string[];
  /** A Sentinel's configuration, written as sentinel.conf in that dir (Sentinel rewrites it, so it stays writable). */
  sentinelConfig?: string;
  /** The node's run dir on this machine (the clock's offset file lives there). */
  hostDir: string;
  /** Start it with the clock-offset library at this offset (ms), so its wall clock can be stepped. */
  clockOffsetMs?: number;
  /** A line the server prints once it accepts connections (a container is waited for on it, then probed). */
  readyLog: RegExp;
  /** Asks the server on 127.0.0.1:`port` its version; throws until it answers. */
  probe(): Promise<string>;
}

export interface NodeServer {
  /** Stop every instruction of the server while its sockets stay open; resume lets it go on. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** SIGKILL; resolves once the server is gone. */
  kill(): Promise<void>;
  /** Resolves when the server has exited by itself (after SHUTDOWN NOSAVE), or after `timeoutMs`. */
  exited(timeoutMs: number): Promise<void>;
  /** Once it has exited or been killed: the same server again on its port, its clock's offset kept; resolves once it answers. */
  startAgain(): Promise<void>;
  /** Kill it if it runs and remove what the runtime made for it (a container). Safe to call twice. */
  remove(): Promise<void>;
}

export interface LaunchedServer {
  server: NodeServer;
  version: string;
  clock?: StoreClock;
}

export type NodeLauncher = (spec: NodeServerSpec) => Promise<LaunchedServer>;

/** The name of a Sentinel's configuration file in the node's dir. */
export const SENTINEL_CONFIG = 'sentinel.conf';
