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

/**
 * A message's content in a few words for a trace or a point's name: its fields but `type` and `rid`
 * and any equal to `known` (the lock key), a flat object's values joined by dots (a token
 * `1.9f3a2c.4`), cut to `max` characters.
 */
export function summarizeLink(message: Pick<LinkMessage, 'body' | 'text'>, known = '', max = 48): string {
  const { body } = message;
  const text =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? Object.entries(body as Record<string, unknown>)
          .filter(([field, value]) => field !== 'type' && field !== 'rid' && value !== known)
          .map(([field, value]) => `${field} ${brief(value)}`)
          .join(', ')
      : message.text;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function brief(value: unknown): string {
  if (typeof value === 'string') return value;
  const flat =
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((v) => typeof v !== 'object' || v === null);
  return flat ? Object.values(value).join('.') : JSON.stringify(value);
}
