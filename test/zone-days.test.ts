/** Local days for V319: transition days are 23 and 25 hours long, in time order, with clear errors. */
import { describe, expect, it } from 'vitest';
import { localDate, localTime, parseZoneDays } from '../scenarios/zone-days.ts';

describe('parseZoneDays', () => {
  it('finds local midnights and the length of transition days, in time order', () => {
    const days = parseZoneDays(
      'Europe/Berlin:2025-10-26,America/New_York:2025-03-09,Europe/Berlin:2025-03-30,Europe/Berlin:2025-06-01',
    );
    expect(days.map((d) => `${d.zone} ${d.date} ${(d.endMs - d.startMs) / 3_600_000}h`)).toEqual([
      'America/New_York 2025-03-09 23h',
      'Europe/Berlin 2025-03-30 23h',
      'Europe/Berlin 2025-06-01 24h',
      'Europe/Berlin 2025-10-26 25h',
    ]);
    const autumn = days[3]!;
    expect(localTime(autumn.zone, autumn.startMs)).toBe('2025-10-26 00:00:00+02:00');
    expect(localTime(autumn.zone, autumn.endMs)).toBe('2025-10-27 00:00:00+01:00');
    expect(localDate(autumn.zone, autumn.endMs - 1)).toBe('2025-10-26');
  });

  it('says what is wrong with a bad item', () => {
    expect(() => parseZoneDays('Europe/Berlin 2025-10-26')).toThrow(/is not Zone:YYYY-MM-DD/);
    expect(() => parseZoneDays('Mars/Olympus:2025-10-26')).toThrow(/not an IANA time zone/);
    expect(() => parseZoneDays(' , ')).toThrow(/no days given/);
  });
});
