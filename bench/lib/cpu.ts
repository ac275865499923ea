import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * CPU time of processes on this machine, read from /proc (Linux): what a capacity benchmark needs
 * to say which part of the system used the cores while it ran. Elsewhere every reading is empty.
 */

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds of one process, or null when it is gone (or no /proc). */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The pids of the running processes whose command name is `name` (e.g. postgres, redis-server). */
function pidsNamed(name: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false;
      try {
        return readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

export interface CpuGroup {
  label: string;
  /** The processes of the group now (called at the start and at the end). */
  pids: () => number[];
}

export const processesNamed = (label: string, name: string): CpuGroup => ({
  label,
  pids: () => pidsNamed(name),
});

/** A process's command line as `ps` shows it (PostgreSQL writes its process title there). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * The PostgreSQL processes that work for the database at `url`: its backends (whose title names
 * the database) and the server's own processes (postmaster, WAL writer, checkpointer, ...), which
 * write every database's commits. Backends of other databases are not counted: on a machine
 * shared with other work (tests, other benches) they are not this run's cost.
 */
export function postgresOf(label: string, url: () => string | undefined): CpuGroup {
  return {
    label,
    pids: () => {
      const target = url();
      const database = target ? decodeURIComponent(new URL(target).pathname.slice(1)) : null;
      if (!database) return [];
      return pidsNamed('postgres').filter((pid) => {
        const title = commandLine(pid);
        const backend = /\(\d+\)|\[local\]/.test(title);
        return !backend || title.includes(` ${database} `);
      });
    },
  };
}

/**
 * Starts counting the CPU time of each group and of the whole machine; `stop()` gives each group's
 * milliseconds since the start (a process that started meanwhile counts whole, one that ended
 * meanwhile not at all) and the machine's busy share of all its cores.
 */
export function startCpuCount(groups: readonly CpuGroup[]) {
  const at = (group: CpuGroup) => new Map(group.pids().map((pid) => [pid, processCpuMs(pid) ?? 0]));
  const before = groups.map(at);
  const machineBefore = machineTimes();
  return {
    stop(): { byGroup: { label: string; ms: number }[]; machineBusy: number } {
      const byGroup = groups.map((group, index) => {
        let ms = 0;
        for (const [pid, now] of at(group)) ms += now - (before[index].get(pid) ?? 0);
        return { label: group.label, ms };
      });
      const machineAfter = machineTimes();
      const total = machineAfter.total - machineBefore.total;
      const machineBusy = total > 0 ? 1 - (machineAfter.idle - machineBefore.idle) / total : Number.NaN;
      return { byGroup, machineBusy };
    },
  };
}

/** The whole machine's CPU times summed over its cores (os.cpus(), milliseconds). */
function machineTimes(): { total: number; idle: number } {
  let total = 0;
  let idle = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle: cpuIdle, irq } = cpu.times;
    total += user + nice + sys + cpuIdle + irq;
    idle += cpuIdle;
  }
  return { total, idle };
}

/**
 * A CPU hog: one busy process per core, at normal priority, as a server is busy when it matters.
 * Benchmarks run a leg with it beside the same leg without it.
 */
export function startCpuHog(): { stop(): void } {
  const hogs = os.cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return {
    stop() {
      for (const hog of hogs) hog.kill('SIGKILL');
    },
  };
}
