/**
 * ZooKeeper's client protocol (jute records, each behind a 4-byte big-endian length) as the proxy
 * sees it, both ways. Client to server: the ConnectRequest first (no header; its session id is 0
 * for a new session, or the one a client re-attaches to), then requests, each a RequestHeader
 * (xid, type) and its body, whose first field is the node's path for every request on a node.
 * Server to client: the ConnectResponse first, then replies, each a ReplyHeader (xid, zxid, err):
 * replies come in the order the requests were sent (ZooKeeper's FIFO order per session), except
 * watch notifications (xid −1), which are no reply to anything. Pings (type 11, xid −2) are the
 * session's keepalive; closeSession (type −11) ends it and deletes its ephemeral nodes.
 *
 * Why our own framer: the proxy needs each message's exact bytes, and no npm package frames the
 * client side (node-zookeeper-client's jute module writes requests and reads replies, with no
 * offsets). A command is named by its type ("create", "delete", "ping"); its args are the paths it
 * names (a multi's every op's), its text one line ("delete /locks/V310/lock-0000000001").
 */
import type { WireCommand } from './command.ts';
import { IncrementalFramer } from './framer.ts';

const MAX_PACKET = 16 * 1024 * 1024;

/** Request types by number (ZooDefs.OpCode), as command names. */
export const ZK_OPS: Readonly<Record<number, string>> = {
  0: 'notification',
  1: 'create',
  2: 'delete',
  3: 'exists',
  4: 'getData',
  5: 'setData',
  6: 'getACL',
  7: 'setACL',
  8: 'getChildren',
  9: 'sync',
  11: 'ping',
  12: 'getChildren2',
  13: 'check',
  14: 'multi',
  15: 'create2',
  16: 'reconfig',
  17: 'checkWatches',
  18: 'removeWatches',
  19: 'createContainer',
  20: 'deleteContainer',
  21: 'createTTL',
  22: 'multiRead',
  100: 'auth',
  101: 'setWatches',
  102: 'sasl',
  103: 'getEphemerals',
  104: 'getAllChildrenNumber',
  105: 'setWatches2',
  106: 'addWatch',
  107: 'whoAmI',
  [-10]: 'createSession',
  [-11]: 'closeSession',
};

/** Requests whose body begins with the path of the node they act on. */
const ON_A_PATH = new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 15, 18, 19, 20, 21, 103, 104, 106]);
/** Create flags (CreateMode): sequential and ephemeral bits, for the command text. */
const CREATE_MODES: Readonly<Record<number, string>> = {
  0: 'persistent',
  1: 'ephemeral',
  2: 'persistent-sequential',
  3: 'ephemeral-sequential',
  4: 'container',
  5: 'persistent-ttl',
  6: 'persistent-sequential-ttl',
};

/** A jute reader over one record's bytes. */
class Jute {
  constructor(
    private readonly buf: Buffer,
    public at: number,
    private readonly end: number,
  ) {}
  int(): number {
    if (this.at + 4 > this.end) throw new Error('record ends inside an int');
    const value = this.buf.readInt32BE(this.at);
    this.at += 4;
    return value;
  }
  long(): bigint {
    if (this.at + 8 > this.end) throw new Error('record ends inside a long');
    const value = this.buf.readBigInt64BE(this.at);
    this.at += 8;
    return value;
  }
  bool(): boolean {
    if (this.at + 1 > this.end) throw new Error('record ends inside a bool');
    return this.buf[this.at++] !== 0;
  }
  /** A ustring or buffer: int length (−1: null), then its bytes. */
  bytes(): Buffer | null {
    const length = this.int();
    if (length < 0) return null;
    if (this.at + length > this.end) throw new Error(`a field of ${length} bytes runs past its record`);
    const value = this.buf.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }
  string(): string {
    return this.bytes()?.toString('utf8') ?? '';
  }
  left(): number {
    return this.end - this.at;
  }
}

const zkCommand = (name: string, args: string[], text: string): WireCommand => ({
  protocol: 'zookeeper',
  name,
  args,
  text,
});

/** A session id as ZooKeeper prints it ("0x10000b6ba1b0000"). */
const sessionHex = (id: bigint): string => `0x${BigInt.asUintN(64, id).toString(16)}`;

/** Skip a create's data, ACL list and flags; the flags. */
function createRest(record: Jute): number {
  record.bytes();
  const acls = record.int();
  for (let i = 0; i < acls; i++) {
    record.int();
    record.string();
    record.string();
  }
  return record.int();
}

/** One request on a path (create, delete, setData, check, …): its name, path, and a word on what it does. */
function pathRequest(type: number, record: Jute): { path: string; text: string } {
  const path = record.string();
  const name = ZK_OPS[type]!;
  if (type === 1 || type === 15 || type === 19 || type === 21) {
    const flags = createRest(record);
    if (type === 21) record.long();
    return { path, text: `${name} ${path} ${CREATE_MODES[flags] ?? `flags ${flags}`}` };
  }
  if (type === 2 || type === 13) return { path, text: `${name} ${path} version ${record.int()}` };
  if (type === 5) {
    record.bytes();
    return { path, text: `${name} ${path} version ${record.int()}` };
  }
  return { path, text: `${name} ${path}` };
}

/** A multi's ops (MultiHeader type/done/err, then the op), each as text; its paths. */
function multiOps(record: Jute): { paths: string[]; texts: string[] } {
  const paths: string[] = [];
  const texts: string[] = [];
  for (;;) {
    const type = record.int();
    const done = record.bool();
    record.int();
    if (done) return { paths, texts };
    if (!ON_A_PATH.has(type)) throw new Error(`a multi op of type ${type}, which the proxy cannot read`);
    const op = pathRequest(type, record);
    paths.push(op.path);
    texts.push(op.text);
  }
}

/** The command one request record carries. */
function requestCommand(record: Jute): WireCommand {
  const xid = record.int();
  const type = record.int();
  const name = ZK_OPS[type] ?? `op${type}`;
  if (type === 14) {
    const { paths, texts } = multiOps(record);
    return zkCommand(name, paths, `multi: ${texts.join('; ')}`);
  }
  if (ON_A_PATH.has(type) && record.left() >= 4) {
    const { path, text } = pathRequest(type, record);
    return zkCommand(name, [path], text);
  }
  return zkCommand(name, [], xid === -2 || type === 11 ? 'ping' : name);
}

/** Client to server: the ConnectRequest, then requests. */
export class ZkRequestFramer extends IncrementalFramer {
  private connected = false;

  protected next(buf: Buffer) {
    if (buf.length < 4) return { need: 4 };
    const length = buf.readInt32BE(0);
    if (length < 0 || length > MAX_PACKET) return { error: `not a ZooKeeper packet (length ${length})` };
    if (buf.length < 4 + length) return { need: 4 + length };
    const record = new Jute(buf, 4, 4 + length);
    try {
      if (this.connected) return { length: 4 + length, command: requestCommand(record) };
      this.connected = true;
      record.int(); // protocolVersion
      record.long(); // lastZxidSeen
      const timeoutMs = record.int();
      const session = sessionHex(record.long());
      const text =
        session === '0x0'
          ? `connect new session, timeout ${timeoutMs} ms`
          : `connect session ${session}, timeout ${timeoutMs} ms`;
      return { length: 4 + length, command: zkCommand('connect', session === '0x0' ? [] : [session], text) };
    } catch (error) {
      return { error: `malformed ZooKeeper request: ${(error as Error).message}` };
    }
  }
}

/** Server to client: a reply is every packet but a watch notification (xid −1); the ConnectResponse is the first reply. */
export class ZkReplyFramer extends IncrementalFramer {
  private connected = false;

  protected next(buf: Buffer) {
    if (buf.length < 4) return { need: 4 };
    const length = buf.readInt32BE(0);
    if (length < 0 || length > MAX_PACKET) return { error: `not a ZooKeeper reply (length ${length})` };
    return buf.length < 4 + length ? { need: 4 + length } : { length: 4 + length, command: null };
  }

  /** Whether a whole packet is a reply to a request (the ConnectResponse, or any xid but −1). */
  isReply(packet: Buffer): boolean {
    if (!this.connected) {
      this.connected = true;
      return true;
    }
    return packet.length < 8 || packet.readInt32BE(4) !== -1;
  }
}

/**
 * The session a server's ConnectResponse grants (protocolVersion, timeOut, sessionId, passwd):
 * what a holder's wire proxy sees, and what the expire-session fault attaches with. Null for a
 * refused session (timeout 0) or bytes that are no ConnectResponse.
 */
export function connectResponse(packet: Buffer): { id: bigint; password: Buffer; timeoutMs: number } | null {
  try {
    const record = new Jute(packet, 4, 4 + packet.readInt32BE(0));
    record.int();
    const timeoutMs = record.int();
    const id = record.long();
    const password = record.bytes();
    return timeoutMs > 0 && password
      ? { id: BigInt.asUintN(64, id), password: Buffer.from(password), timeoutMs }
      : null;
  } catch {
    return null;
  }
}
