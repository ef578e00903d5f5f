/**
 * Where a large plan keeps its operations' texts while it is built: their canonical bodies, dependencies and
 * lineage, which are written once, read once by the store, and were most of a plan's memory (30 MB of body
 * JSON alone at 20,000 invoices, five times that at 100,000, held beside the whole books until the build
 * ends). The texts go to a file beside the workspace's database, appended a megabyte at a time; an operation
 * keeps where its text starts and how many bytes it has (`SpilledOp`), and reads it back when asked.
 *
 * The file is unlinked as soon as it is open (where the system allows; else when it is closed), so that a
 * killed run leaves nothing behind. Reading after `close` is a defect and throws.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

/** Bytes gathered before they are written. */
const CHUNK = 1024 * 1024

/**
 * Bytes read at a time, and how many such blocks are kept (the least recently used is read over). The store
 * reads the texts in load order, by phase and date, which merges the stretches the planners put one after
 * another: at 20,000 invoices, of 76,325 reads of 34 MB, 32,872 would read a block of 16 KB with one block
 * kept, 26,004 with 16 (a block of 64 KB: 20,504 and 15,453 reads, but 1,013-1,344 MB copied). A read of each
 * text (a system call each) took 0.62-0.96 s of the plan's 9.6-11.7 s of CPU (CPU profiles).
 */
export const BLOCK = 16 * 1024
const BLOCKS = 16

let spilled = 0

/** Bytes every spill of this process has put so far (what shows that a plan was built through one). */
export const spilledBytes = (): number => spilled

export class OpSpill {
  private pending: Array<string> = []
  private pendingBytes = 0
  /** Bytes in the file. */
  private written = 0
  /** Blocks of the file read last (`BLOCKS` at most), each with when it was last used. */
  private readonly blocks: Array<{ at: number; bytes: number; buffer: Buffer; used: number }> = []
  private reads = 0
  private loads = 0
  private closed = false

  private constructor(
    private readonly fd: number,
    private readonly path: string,
    private readonly unlinked: boolean
  ) {}

  /** A new, empty spill in `dir`. */
  static open(dir: string): OpSpill {
    const path = NodePath.join(dir, `.plan-spill-${process.pid}-${Date.now().toString(36)}`)
    const fd = NodeFs.openSync(path, "wx+", 0o600)
    let unlinked = false
    try {
      NodeFs.unlinkSync(path)
      unlinked = true
    } catch {
      // A system that cannot unlink an open file: it is removed at `close`.
    }
    return new OpSpill(fd, path, unlinked)
  }

  /** Appends `text`, of `bytes` bytes in UTF-8 (`Buffer.byteLength`); returns where it starts. */
  put(text: string, bytes: number): number {
    this.live()
    const at = this.written + this.pendingBytes
    this.pending.push(text)
    this.pendingBytes += bytes
    spilled += bytes
    if (this.pendingBytes >= CHUNK) this.flush()
    return at
  }

  /** The text of `bytes` bytes put at `at`. */
  read(at: number, bytes: number): string {
    this.live()
    if (at + bytes > this.written) this.flush()
    const block = this.blocks.find((b) => at >= b.at && at + bytes <= b.at + b.bytes) ?? this.load(at, bytes)
    block.used = ++this.reads
    return block.buffer.toString("utf8", at - block.at, at - block.at + bytes)
  }

  /** Blocks read from the file so far (a text read from a block already read costs none). */
  get blockReads(): number {
    return this.loads
  }

  /** Bytes put so far. */
  get size(): number {
    return this.written + this.pendingBytes
  }

  /** Closes (and removes) the file; what was put can no longer be read. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.pending = []
    this.blocks.length = 0
    NodeFs.closeSync(this.fd)
    if (!this.unlinked) NodeFs.rmSync(this.path, { force: true })
  }

  /**
   * The block of the file from `at` holding at least `bytes` bytes (`BLOCK` when the file has them), read
   * into the least recently used block's buffer.
   */
  private load(at: number, bytes: number) {
    const size = Math.max(BLOCK, bytes)
    let block =
      this.blocks.length < BLOCKS
        ? undefined
        : this.blocks.reduce((oldest, b) => (b.used < oldest.used ? b : oldest))
    if (block === undefined)
      this.blocks.push((block = { at, bytes: 0, buffer: Buffer.allocUnsafe(size), used: 0 }))
    if (block.buffer.length < size) block.buffer = Buffer.allocUnsafe(size)
    const want = Math.min(size, this.written - at)
    let got = 0
    while (got < want) {
      const n = NodeFs.readSync(this.fd, block.buffer, got, want - got, at + got)
      if (n === 0) break
      got += n
    }
    block.at = at
    block.bytes = got
    this.loads++
    if (got < bytes) throw new Error(`the plan's spill file ends at ${at + got} of ${at + bytes} bytes`)
    return block
  }

  private flush(): void {
    if (this.pendingBytes === 0) return
    const data = Buffer.from(this.pending.join(""), "utf8")
    for (let done = 0; done < data.length;)
      done += NodeFs.writeSync(this.fd, data, done, data.length - done, this.written + done)
    this.written += data.length
    this.pending = []
    this.pendingBytes = 0
  }

  private live(): void {
    if (this.closed) throw new Error("the plan's spill was used after it was closed: a defect")
  }
}
