// What Linux's /proc tells the benchmarks about a process.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // getconf CLK_TCK on Linux

/** CPU seconds a process (all its threads) has used so far, user + system; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Resident set of a process, now and at its peak (VmHWM), in bytes. */
export function residentSet(pid: number): { now: number; peak: number; anonymous: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
  // RSS also counts the executable's pages as they are first touched (Node's binary is 100 MB): a slow rise that
  // stops. What a leak grows is the anonymous part (heaps, buffers).
  return { now: kib('VmRSS'), peak: kib('VmHWM'), anonymous: kib('RssAnon') };
}

/** Starts a new peak: Linux resets VmHWM to the current RSS (clear_refs 5; the process must be ours). */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Context switches of all of a process's threads so far (voluntary + involuntary): each is a wakeup or a
 * preemption, so their rate tells how often the process is woken. */
export function contextSwitches(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
      total += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // the thread ended meanwhile
    }
  }
  return total;
}

/** A process's proportional set size in bytes: its private pages plus its share of pages it shares. */
export function proportionalSet(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1]) * 1024;
}
