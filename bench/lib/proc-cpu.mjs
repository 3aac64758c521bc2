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
