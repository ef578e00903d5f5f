/**
 * Load progress: per-phase bars with rate and ETA on a terminal (cli-progress), plain periodic lines
 * otherwise (CI, pipes), so a long load always shows where it stands.
 */
import cliProgress from "cli-progress"
import type { ProgressEvent } from "../load/Executor.js"
import { phases, type Phase } from "../transform/Plan.js"

export interface Progress {
  readonly onEvent: (e: Pick<ProgressEvent, "phase" | "key" | "status">) => void
  readonly stop: () => void
}

const final = new Set(["done", "rejected", "skipped", "in_doubt"])

/** Starts the display of a load of `planned` operations per phase (a phase it does not name has none). */
export const start = (
  planned: ReadonlyMap<Phase, number>,
  out: NodeJS.WriteStream = process.stderr
): Progress => {
  const totals = new Map<Phase, number>(phases.map((p) => [p, planned.get(p) ?? 0]))
  const settled = new Map<Phase, number>(phases.map((p) => [p, 0]))
  if (out.isTTY) {
    const multi = new cliProgress.MultiBar(
      {
        format: " {phase} |{bar}| {value}/{total} · {eta_formatted} left · {rate}/s",
        hideCursor: true,
        clearOnComplete: false,
        stream: out
      },
      cliProgress.Presets.shades_classic
    )
    const started = Date.now()
    const bars = new Map(
      phases
        .filter((p) => totals.get(p)! > 0)
        .map((p) => [p, multi.create(totals.get(p)!, 0, { phase: p.padEnd(12), rate: "0" })])
    )
    return {
      onEvent: (e) => {
        if (!final.has(e.status)) return
        settled.set(e.phase, settled.get(e.phase)! + 1)
        const rate = ((settled.get(e.phase)! * 1000) / Math.max(1, Date.now() - started)).toFixed(0)
        bars.get(e.phase)?.update(settled.get(e.phase)!, { rate })
      },
      stop: () => multi.stop()
    }
  }
  const timer = setInterval(() => {
    const parts = phases
      .filter((p) => totals.get(p)! > 0)
      .map((p) => `${p} ${settled.get(p)}/${totals.get(p)}`)
    out.write(`load: ${parts.join(" · ")}\n`)
  }, 2000)
  timer.unref()
  return {
    onEvent: (e) => {
      if (final.has(e.status)) settled.set(e.phase, settled.get(e.phase)! + 1)
    },
    stop: () => clearInterval(timer)
  }
}
