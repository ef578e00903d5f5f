/** The load's progress display: bars with counts on a terminal, plain periodic lines elsewhere. */
import { assert, describe, it } from "@effect/vitest"
import { vi } from "vitest"
import { Writable } from "node:stream"
import * as Progress from "../../src/cli/Progress.js"
import type { Phase } from "../../src/transform/Plan.js"

const planned = new Map<Phase, number>([
  ["contacts", 2],
  ["transactions", 1]
])
const sink = (isTTY: boolean) => {
  let text = ""
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk)
      done()
    }
  }) as unknown as NodeJS.WriteStream & { isTTY: boolean; columns: number }
  stream.isTTY = isTTY
  stream.columns = 120
  ;(stream as any).cursorTo = () => true
  ;(stream as any).moveCursor = () => true
  ;(stream as any).clearLine = () => true
  ;(stream as any).clearScreenDown = () => true
  return { stream, text: () => text }
}

describe("Progress", () => {
  it("prints plain lines every 2 s when not on a terminal, counting only settled operations", () => {
    vi.useFakeTimers()
    try {
      const out = sink(false)
      const p = Progress.start(planned, out.stream)
      p.onEvent({ phase: "contacts", key: "contact:a", status: "done" })
      p.onEvent({ phase: "contacts", key: "contact:b", status: "sending" })
      vi.advanceTimersByTime(2000)
      p.onEvent({ phase: "contacts", key: "contact:b", status: "rejected" })
      vi.advanceTimersByTime(2000)
      p.stop()
      assert.deepStrictEqual(out.text().trim().split("\n"), [
        "load: contacts 1/2 · transactions 0/1",
        "load: contacts 2/2 · transactions 0/1"
      ])
    } finally {
      vi.useRealTimers()
    }
  })

  it("draws a bar per phase with done/total on a terminal", () => {
    const out = sink(true)
    const p = Progress.start(planned, out.stream)
    p.onEvent({ phase: "contacts", key: "contact:a", status: "done" })
    p.onEvent({ phase: "contacts", key: "contact:b", status: "done" })
    p.stop()
    assert.match(out.text(), /contacts\s+\|.*\| 2\/2/)
    assert.match(out.text(), /transactions\s+\|.*\| 0\/1/)
  })
})
