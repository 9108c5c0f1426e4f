/** Local days in an IANA time zone: parsing "Zone:YYYY-MM-DD" lists, local midnights, local dates. */

export interface ZoneDay {
  zone: string;
  /** The local date, YYYY-MM-DD. */
  date: string;
  /** Local 00:00 of the date, epoch ms. */
  startMs: number;
  /** Local 00:00 of the next date, epoch ms (23, 24 or 25 hours on). */
  endMs: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, found);
  }
  return found;
}

/** The local wall time at `t` in `zone`, as the epoch ms it would be if that wall time were UTC. */
function wallAsUtc(zone: string, t: number): number {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(t)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

/** "YYYY-MM-DD" of `t` in `zone`. */
export function localDate(zone: string, t: number): string {
  return new Date(wallAsUtc(zone, t)).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD HH:MM:SS" of `t` in `zone`, with the UTC offset in force. */
export function localTime(zone: string, t: number): string {
  const offsetMin = Math.round((wallAsUtc(zone, t) - Math.floor(t / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const hh = String(Math.floor(Math.abs(offsetMin) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offsetMin) % 60).padStart(2, '0');
  return `${new Date(wallAsUtc(zone, t)).toISOString().slice(0, 19).replace('T', ' ')}${sign}${hh}:${mm}`;
}

/** Local 00:00 of `date` in `zone`. */
function localMidnight(zone: string, date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(y, m - 1, d);
  let guess = asUtc - (wallAsUtc(zone, asUtc) - asUtc);
  guess = asUtc - (wallAsUtc(zone, guess) - guess);
  if (localTime(zone, guess).slice(0, 19) !== `${date} 00:00:00`) {
    throw new Error(`${date} has no local midnight in ${zone} (a transition at 00:00); pick another date`);
  }
  return guess;
}

/** Parse "Europe/Berlin:2025-10-26,America/New_York:2025-11-02" into days, in time order. */
export function parseZoneDays(text: string): ZoneDay[] {
  const days = text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^(.+):(\d{4}-\d{2}-\d{2})$/.exec(item);
      if (!match) throw new Error(`"${item}" is not Zone:YYYY-MM-DD (e.g. Europe/Berlin:2025-10-26)`);
      const [, zone, date] = match as unknown as [string, string, string];
      try {
        formatter(zone);
      } catch {
        throw new Error(`"${zone}" is not an IANA time zone this Node knows (e.g. Europe/Berlin, America/New_York)`);
      }
      const startMs = localMidnight(zone, date);
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
      return { zone, date, startMs, endMs: localMidnight(zone, next) };
    });
  if (!days.length) throw new Error('no days given');
  return days.sort((a, b) => a.startMs - b.startMs);
}
