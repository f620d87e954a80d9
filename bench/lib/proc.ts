import { readdirSync, readFileSync } from "node:fs";

/** ms per clock tick in /proc/<pid>/stat (USER_HZ = 100 on Linux). */
const TICK_MS = 10;

/**
 * A process's command name and CPU times (ms) from /proc, or null when it is gone. `childMs` is what its
 * exited children used (user + system) once it collected them.
 */
function stat(pid: number | string): { command: string; userMs: number; sysMs: number; childMs: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return {
    command: text.slice(text.indexOf("(") + 1, close),
    userMs: Number(fields[11]) * TICK_MS,
    sysMs: Number(fields[12]) * TICK_MS,
    childMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS,
  };
}

const allPids = () => readdirSync("/proc").filter((d) => /^\d+$/.test(d));

/**
 * CPU time (ms; user + system, or system alone) of one process, of a list of processes, or of every
 * postgres process on this machine when pid is null. With null, the backends that ended count too (the
 * postmaster's collected children: a pool replaces idle connections during a long run).
 */
export function cpuMs(pid: number | readonly number[] | null, which: "all" | "sys" = "all"): number {
  let total = 0;
  for (const p of pid === null ? allPids() : typeof pid === "number" ? [pid] : pid) {
    const s = stat(p);
    if (!s || (pid === null && !s.command.startsWith("postgres"))) continue;
    total += (which === "all" ? s.userMs + (pid === null ? s.childMs : 0) : 0) + s.sysMs;
  }
  return total;
}

/** Whether every one of these processes is still running. */
export function allRunning(pids: readonly number[]): boolean {
  return pids.every((p) => stat(p) !== null);
}

/** CPU time (ms, user + system) of every postgres process, by process id; null where /proc is missing. */
export function postgresCpuByPid(): Map<number, number> | null {
  try {
    const total = new Map<number, number>();
    for (const p of allPids()) {
      const s = stat(p);
      if (s?.command.startsWith("postgres")) total.set(Number(p), s.userMs + s.sysMs);
    }
    return total;
  } catch {
    return null;
  }
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
export function memoryMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb("VmRSS") / 1024), hwm: Math.round(kb("VmHWM") / 1024) };
}

/** A process's read and write system calls so far (syscr, syscw of /proc/<pid>/io; socket reads and writes count). */
export function syscalls(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, "utf8");
  const n = (field: string) => Number(new RegExp(`${field}: (\\d+)`).exec(io)?.[1] ?? 0);
  return { reads: n("syscr"), writes: n("syscw") };
}
