import { handleClockCommand } from '/work/wt-suite3/scenarios/holder-clock.ts';
import { Cron } from 'croner';
const start = Date.UTC(2025, 2, 29, 23, 0, 0);
await handleClockCommand({ op: 'install-sim', startMs: start, zone: process.argv[2] ?? 'Europe/Berlin' });
const job = new Cron('30 1 * * *', { utcOffset: 0 }, () => {});
await handleClockCommand({ op: 'advance', toMs: start + 24 * 3600_000, settleTimeoutMs: 3000, untilWork: true, maxFires: 1e9 });
await handleClockCommand({ op: 'settle', settleTimeoutMs: 3000 });
for (const mode of ['hooked']) {
const t0 = performance.now(); const c0 = process.cpuUsage();
const r = await handleClockCommand({ op: 'advance', toMs: start + 24 * 3600_000, settleTimeoutMs: 3000, untilWork: true, maxFires: 1e9 });
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ fired: r.fired, wall: performance.now() - t0, cpuUser: c.user / 1000, cpuSys: c.system/1000 }));
}
job.stop();
await handleClockCommand({ op: 'uninstall' });
