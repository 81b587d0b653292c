import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * What the operating system says about this machine, for the admin dashboard: CPU busy share
 * between two readings, memory, the disk that holds DATA_DIR, and uptimes.
 */

type CpuTimes = { busy: number; total: number };

function cpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
}

/**
 * A CPU meter: each reading is the share (0–100) of the machine's cores that were busy since the
 * previous reading; the first reading covers the time since the machine started.
 */
export function cpuMeter(read: () => CpuTimes = cpuTimes) {
  let last: CpuTimes = { busy: 0, total: 0 };
  return (): number => {
    const now = read();
    const busy = now.busy - last.busy;
    const total = now.total - last.total;
    last = now;
    if (total <= 0) return 0;
    return Math.min(100, Math.max(0, (busy / total) * 100));
  };
}

export type MemoryStats = { totalBytes: number; availableBytes: number; usedPercent: number; processBytes: number };

export function memoryStats(): MemoryStats {
  const totalBytes = os.totalmem();
  const availableBytes = os.freemem();
  return {
    totalBytes,
    availableBytes,
    usedPercent: totalBytes > 0 ? ((totalBytes - availableBytes) / totalBytes) * 100 : 0,
    processBytes: process.memoryUsage.rss(),
  };
}

export type DiskStats = { path: string; totalBytes: number; freeBytes: number; usedPercent: number };

/** The file system holding `dir` (its nearest existing parent), or null when it cannot be read. */
export function diskStats(dir: string): DiskStats | null {
  let probe = path.resolve(dir);
  while (!fs.existsSync(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
  try {
    const stats = fs.statfsSync(probe);
    const totalBytes = stats.blocks * stats.bsize;
    const freeBytes = stats.bavail * stats.bsize;
    return {
      path: dir,
      totalBytes,
      freeBytes,
      usedPercent: totalBytes > 0 ? ((totalBytes - freeBytes) / totalBytes) * 100 : 0,
    };
  } catch {
    return null;
  }
}

export function cpuInfo(): { cores: number; loadAverage: number[]; model: string } {
  const cpus = os.cpus();
  return {
    cores: cpus.length || os.availableParallelism(),
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    model: cpus[0]?.model.trim() ?? "",
  };
}

export function uptimes(): { processSeconds: number; systemSeconds: number } {
  return { processSeconds: Math.round(process.uptime()), systemSeconds: Math.round(os.uptime()) };
}
