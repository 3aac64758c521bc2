// CPU time from Linux's /proc, for the benches' CPU per request or per delivery: less moved by the
// machine's other load than wall-clock figures.
import { readFileSync, readdirSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command's name (state first), or undefined once it is gone. */
export function statFields(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) process `pid` has used so far; NaN once it is gone. */
export function cpuSeconds(pid) {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / 100 : NaN;
}

/** CPU seconds of each PostgreSQL backend serving `database` (user `svc`), by pid. */
export function databaseCpu(database) {
  const result = new Map();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(`postgres: svc ${database} `))
        result.set(pid, cpuSeconds(pid));
    } catch {
      // gone meanwhile
    }
  }
  return result;
}

/** The CPU seconds the backends used between two databaseCpu() readings (new backends from zero). */
export function cpuSince(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** The machine's CPU time so far (/proc/stat, every core): `busy` and `total`, in clock ticks. */
export function machineCpu() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { busy: total - ticks[3] - ticks[4], total };
}

/** The share of the machine's CPU (0 to 1) that was busy between two machineCpu() readings. */
export function busyShare(before, after) {
  return (after.busy - before.busy) / Math.max(1, after.total - before.total);
}
