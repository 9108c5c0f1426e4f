/**
 * Which messages on a cluster's links a fault picks out: by direction (`from`, `to`: node ids), by
 * content (`type`: the message's `type` field; `contains`: every field given equal in the message,
 * or a substring of its text), and by position (`nth`: the nth message that matches, counted on its
 * direction from when the fault was armed; default 1).
 */
export interface LinkMatch {
  from?: string;
  to?: string;
  type?: string;
  contains?: Record<string, unknown> | string;
  nth?: number;
}

export interface LinkMessage {
  readonly from: string;
  readonly to: string;
  /** Its position on its direction (1, 2, ...), counted over the whole run. */
  readonly n: number;
  readonly body: unknown;
  readonly text: string;
  /** The `type` field of a JSON object message, or ''. */
  readonly type: string;
}

export function matchesLink(match: LinkMatch, message: LinkMessage): boolean {
  if (match.from !== undefined && match.from !== message.from) return false;
  if (match.to !== undefined && match.to !== message.to) return false;
  if (match.type !== undefined && match.type !== message.type) return false;
  if (typeof match.contains === 'string') return message.text.includes(match.contains);
  if (match.contains) {
    const body = message.body;
    if (typeof body !== 'object' || body === null) return false;
    return Object.entries(match.contains).every(
      ([field, value]) => JSON.stringify((body as Record<string, unknown>)[field]) === JSON.stringify(value),
    );
  }
  return true;
}

/** "the 2nd grant from n3 to n1". */
export function describeLinkMatch(match: LinkMatch): string {
  const nth = match.nth ?? 1;
  const ordinal = nth === 1 ? 'next' : `${nth}${nth === 2 ? 'nd' : nth === 3 ? 'rd' : 'th'}`;
  const what =
    match.type ??
    (typeof match.contains === 'string'
      ? `message containing "${match.contains}"`
      : match.contains
        ? `message with ${JSON.stringify(match.contains)}`
        : 'message');
  return `the ${ordinal} ${what}${match.from ? ` from ${match.from}` : ''}${match.to ? ` to ${match.to}` : ''}`;
}

/** The `type` field of a message, for traces and matches. */
export function typeOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const type = (body as Record<string, unknown>).type;
  return typeof type === 'string' ? type : '';
}

/** A message's content in a few words for a trace or a point's name: its fields but `type` and `rid`, cut to `max` characters. */
export function summarizeLink(message: Pick<LinkMessage, 'body' | 'text'>, max = 60): string {
  const { body } = message;
  const text =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? Object.entries(body as Record<string, unknown>)
          .filter(([field]) => field !== 'type' && field !== 'rid')
          .map(([field, value]) => `${field} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
          .join(', ')
      : message.text;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
