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

let spilled = 0

/** Bytes every spill of this process has put so far (what shows that a plan was built through one). */
export const spilledBytes = (): number => spilled

export class OpSpill {
  private pending: Array<string> = []
  private pendingBytes = 0
  /** Bytes in the file. */
  private written = 0
  private buffer = Buffer.allocUnsafe(64 * 1024)
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
    if (bytes > this.buffer.length) this.buffer = Buffer.allocUnsafe(Math.max(bytes, 2 * this.buffer.length))
    for (let got = 0; got < bytes;) {
      const n = NodeFs.readSync(this.fd, this.buffer, got, bytes - got, at + got)
      if (n === 0) throw new Error(`the plan's spill file ends at ${at + got} of ${at + bytes} bytes`)
      got += n
    }
    return this.buffer.toString("utf8", 0, bytes)
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
    NodeFs.closeSync(this.fd)
    if (!this.unlinked) NodeFs.rmSync(this.path, { force: true })
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
