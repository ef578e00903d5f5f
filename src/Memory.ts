/**
 * A ceiling on the heap of the batch stages. V8 lets garbage grow to a multiple of the live heap before it
 * collects in full, and gives little of it back: `plan` at 20,000 invoices held 112 MB of books, and 118 MB
 * of heap with its operations, at most (after forced collections), yet peaked at 590–710 MB of RSS, most of
 * it garbage not yet collected. The stages call `relieve()` between pages of work (staged rows, stored
 * operations, the target's records); when the heap in use, garbage included, passes the ceiling, a full
 * collection runs, and the ceiling becomes what is left live plus `HEADROOM` (never below `FLOOR`). The cost
 * is one full collection per `HEADROOM` of garbage.
 *
 * The collector is reached through `--expose-gc` set at run time and a new context's `gc` (the flag only
 * applies to contexts made after it): the heap's own limits cannot be changed once Node has started, and a
 * launcher that re-executed Node with flags would leave its child running when it is killed.
 */
import * as NodeV8 from "node:v8"
import * as NodeVm from "node:vm"

const MB = 1024 * 1024
/** The least ceiling: below it the heap is left to V8. */
export const FLOOR = 128 * MB
/** Garbage allowed above what is live before a full collection. */
export const HEADROOM = 96 * MB

let gc: (() => void) | undefined
let ceiling = FLOOR
let collections = 0

const collector = (): (() => void) => {
  if (gc === undefined) {
    NodeV8.setFlagsFromString("--expose-gc")
    gc = NodeVm.runInNewContext("gc") as () => void
  }
  return gc
}

/** Collects in full when the heap in use has passed the ceiling; returns whether it did. */
export const relieve = (): boolean => {
  if (process.memoryUsage().heapUsed <= ceiling) return false
  collector()()
  collections++
  ceiling = Math.max(FLOOR, process.memoryUsage().heapUsed + HEADROOM)
  return true
}

/** Full collections `relieve` has run in this process. */
export const collectionCount = (): number => collections
