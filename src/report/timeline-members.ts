/**
 * The timeline's lane per member of a store run as several (a coordination service's members on
 * --topology etcd:N / zookeeper:N, a Redis topology's nodes on redlock:N, replicated, sentinel):
 * from the harness's own per-member reads (the `members` or `nodes` of each `store-observed`
 * event), what each member held from one read to the next — whose key or session, nothing, or the
 * member paused, killed or unreachable — so a split between members is seen, not read in a table.
 * Whose: the holder whose acquire returned the value the member holds (its token, or its id as the
 * value), else the lease or session the member says owns it.
 */
import type { EvidenceRecord } from './evidence.ts';

/** One member's state between two reads. */
export interface MemberSpan {
  member: string;
  from: number;
  to: number;
  /** Who holds the lock there ("A", "lease …6575"), or null when nothing does. */
  whose: string | null;
  /** The member's role or state as read ("leader", "follower", "master", "paused", "killed", "down"). */
  role: string;
  /** The history event of the read that began the span. */
  read: number;
}

interface Reading {
  member: string;
  role: string;
  exists: boolean;
  value?: string | null;
  owner?: string;
}

/** The member lanes' names, in the order first read, and every span on them. */
export function memberSpans(record: EvidenceRecord, end: number): { lanes: string[]; spans: MemberSpan[] } {
  const reads = record.history.filter((e) => e.kind === 'store-observed' && !e.holder && readingsOf(e.detail).length);
  const tokens = holderTokens(record);
  const lanes: string[] = [];
  const spans: MemberSpan[] = [];
  reads.forEach((event, k) => {
    const next = reads[k + 1]?.t ?? end;
    for (const reading of readingsOf(event.detail)) {
      if (!lanes.includes(reading.member)) lanes.push(reading.member);
      spans.push({
        member: reading.member,
        from: event.t,
        to: next,
        whose: whose(reading, tokens),
        role: reading.role,
        read: event.i,
      });
    }
  });
  return { lanes, spans };
}

/** A read's per-member readings: a coordination service's `members`, or a Redis topology's `nodes`. */
function readingsOf(detail: Record<string, unknown>): Reading[] {
  const list = Array.isArray(detail.members) ? detail.members : Array.isArray(detail.nodes) ? detail.nodes : [];
  return (list as Array<Record<string, unknown>>).flatMap((r) => {
    const member = typeof r.member === 'string' ? r.member : typeof r.node === 'string' ? r.node : undefined;
    if (member === undefined) return [];
    return [
      {
        member,
        role: String(r.role ?? ''),
        exists: r.exists === true,
        value: typeof r.value === 'string' ? r.value : null,
        ...(typeof r.owner === 'string' ? { owner: r.owner } : {}),
      },
    ];
  });
}

/** Every value a holder's acquire returned (its token, lease id, fence), by holder. */
function holderTokens(record: EvidenceRecord): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const e of record.history)
    if (e.kind === 'acquire-ok' && e.holder)
      for (const value of Object.values(e.detail))
        if (typeof value === 'string' && value !== '') tokens.set(value, e.holder);
  return tokens;
}

function whose(reading: Reading, tokens: Map<string, string>): string | null {
  if (!reading.exists) return null;
  const value = reading.value ?? '';
  const holder = tokens.get(value) ?? (/^[A-Z]$/.test(value) ? value : undefined);
  if (holder) return holder;
  if (reading.owner)
    return reading.owner.startsWith('0x') ? `session ${short(reading.owner)}` : `lease ${short(reading.owner)}`;
  return value ? `"${short(value)}"` : 'someone';
}

/** A long id cut to its last characters: "…b0001". */
function short(id: string): string {
  return id.length > 8 ? `…${id.slice(-5)}` : id;
}
