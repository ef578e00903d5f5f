/**
 * A ceiling on the heap of the batch stages. V8 lets garbage grow to a multiple of the live heap before it
 * collects in full, and gives little of it back: `plan` at 20,000 invoices held 112 MB of books, and 118 MB
 * of heap with its operations, at most (after forced collections), yet peaked at 590–710 MB of RSS, most of
 * it garbage not yet collected. The stages call `relieve()` between pages of work (staged rows, stored
 * operations, the target's records); when the heap in use, garbage included, passes the ceiling, a full
 * collection runs, and the ceiling becomes what is left live plus `headroomFor` it (never below the caller's
 * floor: `FLOOR`, unless a stage names its own). The cost is one full collection per headroom of garbage.
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
/**
 * Garbage allowed above what is live before a full collection: a quarter of what is live, never less than
 * `HEADROOM`. At 20,000 invoices (140 MB live at most) 48 MB instead of 96 MB lowered plan's peak RSS from
 * 337-358 to 323-324 MB at the same speed (two runs each); in proportion, a company five times that size is
 * not collected in full five times as often. 32 MB instead of 48 MB: reconcile at 100,000 invoices (84-102
 * MB live) peaked at 280-287 MB against 293-296 MB, in 20.2-22.7 s against 20.7-21.6 s (three interleaved
 * runs each); plan at 20,000 invoices at 276-278 MB either way, in 9.1-9.2 s against 8.9-9.0 s (two each).
 */
export const HEADROOM = 32 * MB
export const headroomFor = (live: number): number => Math.max(HEADROOM, Math.round(live / 4))

/**
 * The heap in use, as `process.memoryUsage().heapUsed` gives it, without the resident set size that it
 * measures as well: at 20,000 invoices reconcile's 129 calls of it took 165 ms (1.3 ms each, timed in the
 * process), on the thread that parses the target's answers. `buffers`: with what the heap's objects hold
 * outside it (`external_memory`).
 */
const heapUsed = (buffers = false): number => {
  const h = NodeV8.getHeapStatistics()
  return buffers ? h.used_heap_size + h.external_memory : h.used_heap_size
}

let gc: (() => void) | undefined
/** What was left live after the last full collection, plus its headroom (0 before any). */
let limit = 0
let collections = 0

const collector = (): (() => void) => {
  if (gc === undefined) {
    NodeV8.setFlagsFromString("--expose-gc")
    gc = NodeVm.runInNewContext("gc") as () => void
  }
  return gc
}

/**
 * Keeps V8's young generation at the size it has instead of letting it grow (to 16 MB semispaces), while a
 * stage's live heap grows (plan reading the books): most of what it allocates survives, which is what makes
 * V8 grow the young generation. plan at 20,000 invoices peaked at 304 MB of RSS instead of 323-324 MB, in
 * 23.3-24.7 s against 24.5-25.3 s (two runs each).
 *
 * Not for the loader: its requests in flight then moved to the old generation, and its peak rose by 20-35 MB.
 * Not for reconcile since it compares the books the plan kept: most of what it allocates is the target's
 * pages, parsed and dropped a page at a time, which a small young generation copies and promotes while the
 * page is still being parsed. At 20,000 invoices, three interleaved runs each: 5.35-5.73 s and 5.0-5.3 s of
 * user CPU without it, against 5.89-6.12 s and 6.0-6.3 s with it; peak RSS 261-265 against 255-258 MB.
 */
export const steadyYoungGeneration = (): void => NodeV8.setFlagsFromString("--semi-space-growth-factor=1")

/**
 * Lets V8 grow the young generation again (its own growth factor, 2): for plan once the books are read and
 * kept. Reading them is where its peak is; the build after it allocates operations that are put in the scratch and
 * dropped, and with the young generation held small every one of them was copied, and most promoted. At
 * 100,000 invoices: 2,434 scavenges (9.9 s) instead of 5,124 (14.7 s), plan (without its preview) in
 * 54.1-56.9 s against 64.5-68.5 s, peak RSS 766-769 MB either way; at 20,000, 13.9-14.4 s against
 * 14.8-15.3 s and 277 MB against 283-284 MB (two interleaved runs each).
 */
export const growingYoungGeneration = (): void => NodeV8.setFlagsFromString("--semi-space-growth-factor=2")

/**
 * Collects in full when the heap in use has passed the ceiling (what the last full collection left live plus
 * its headroom, never below `floor`); returns whether it did. `buffers`: counts with the heap what its objects
 * hold outside it, for a stage whose garbage is mostly buffers (the plan's preview: its workbook's XML and zip
 * chunks), which V8 collects only once they pass a limit of their own.
 */
export const relieve = (floor: number = FLOOR, options: { readonly buffers?: boolean } = {}): boolean => {
  if (heapUsed(options.buffers) <= Math.max(floor, limit)) return false
  collectNow()
  return true
}

/**
 * Collects in full now, and sets the ceiling from what is left: for the end of a phase whose data is
 * garbage (reconcile's books and the target's documents, before its report is written), where the heap in
 * use may be just under the ceiling that the phase's live data set, and the next phase's garbage would
 * otherwise pile on top of it. Returns the heap left in use (what is live).
 */
export const collectNow = (): number => {
  collector()()
  collections++
  const live = heapUsed()
  limit = live + headroomFor(live)
  return live
}

/** Full collections `relieve` has run in this process. */
export const collectionCount = (): number => collections
