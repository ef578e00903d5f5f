/** What a benchmark process measures about itself while a task runs: wall time, CPU time and resident memory. */
import * as NodeFs from "node:fs"

/** The figures of one measured task. */
export interface Measured<A> {
  readonly value: A
  readonly seconds: number
  /** User + system CPU seconds of this process during the task. */
  readonly cpuSeconds: number
  /** RSS just before the task started (the process with its modules loaded), MB. */
  readonly rssBeforeMb: number
  /** Highest RSS seen by sampling `process.memoryUsage().rss` every 100 ms, MB. */
  readonly rssPeakMb: number
  /** The kernel's high-water mark of this process's RSS (`VmHWM`), MB; undefined off Linux. */
  readonly hwmMb: number | undefined
  readonly rssSamples: number
}

const MB = 1024 * 1024

const highWaterMark = (): number | undefined => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(NodeFs.readFileSync("/proc/self/status", "utf8"))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** Runs `task`, sampling RSS every `everyMs` milliseconds. */
export const measure = async <A>(task: () => Promise<A>, everyMs = 100): Promise<Measured<A>> => {
  const before = process.memoryUsage().rss
  let peak = before
  let samples = 0
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
    samples++
  }, everyMs)
  const cpu = process.cpuUsage()
  const started = performance.now()
  try {
    const value = await task()
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    peak = Math.max(peak, process.memoryUsage().rss)
    return {
      value,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      rssBeforeMb: before / MB,
      rssPeakMb: peak / MB,
      hwmMb: highWaterMark(),
      rssSamples: samples
    }
  } finally {
    clearInterval(timer)
  }
}
