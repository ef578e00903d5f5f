/**
 * A minimal ZIP reader (central directory + inflate-raw) over an XLSX: the parts the sheet reader streams,
 * the sheet names, and an independent row count to catch a streamed read that stops early without an error.
 */
import * as NodeFs from "node:fs"
import * as NodeFsP from "node:fs/promises"
import * as NodeStream from "node:stream"
import * as NodeZlib from "node:zlib"

/** One stored file of the archive. */
export interface Entry {
  readonly name: string
  readonly method: number
  readonly compressedSize: number
  readonly localOffset: number
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/** The entries of the ZIP archive at `path`, by name. Throws on a damaged or ZIP64 archive. */
export const entries = async (path: string): Promise<ReadonlyMap<string, Entry>> => {
  const handle = await NodeFsP.open(path, "r")
  try {
    const { size } = await handle.stat()
    const tailSize = Math.min(size, 65_557)
    const tail = Buffer.alloc(tailSize)
    await handle.read(tail, 0, tailSize, size - tailSize)
    let eocd = -1
    for (let i = tailSize - 22; i >= 0; i--) if (tail.readUInt32LE(i) === EOCD) ((eocd = i), (i = -1))
    if (eocd < 0) throw new Error("not a ZIP archive (no end of central directory)")
    const count = tail.readUInt16LE(eocd + 10)
    const cdSize = tail.readUInt32LE(eocd + 12)
    const cdOffset = tail.readUInt32LE(eocd + 16)
    if (cdOffset === 0xffffffff || count === 0xffff) throw new Error("ZIP64 archives are not supported")
    const cd = Buffer.alloc(cdSize)
    await handle.read(cd, 0, cdSize, cdOffset)
    const out = new Map<string, Entry>()
    let at = 0
    for (let n = 0; n < count; n++) {
      if (cd.readUInt32LE(at) !== CENTRAL) throw new Error("damaged ZIP central directory")
      const nameLength = cd.readUInt16LE(at + 28)
      const name = cd.toString("utf8", at + 46, at + 46 + nameLength)
      out.set(name, {
        name,
        method: cd.readUInt16LE(at + 10),
        compressedSize: cd.readUInt32LE(at + 20),
        localOffset: cd.readUInt32LE(at + 42)
      })
      at += 46 + nameLength + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32)
    }
    return out
  } finally {
    await handle.close()
  }
}

/**
 * The uncompressed bytes of `entry` as a stream of chunks of about `chunkSize` bytes (a read or inflate
 * failure fails the stream). Destroying it (or leaving a `for await` over it early) also closes the file.
 */
export const open = async (
  path: string,
  entry: Entry,
  chunkSize = 64 * 1024
): Promise<NodeStream.Readable> => {
  const handle = await NodeFsP.open(path, "r")
  const header = Buffer.alloc(30)
  try {
    await handle.read(header, 0, 30, entry.localOffset)
  } finally {
    await handle.close()
  }
  if (header.readUInt32LE(0) !== LOCAL) throw new Error(`damaged ZIP entry ${entry.name}`)
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
  if (entry.method !== 0 && entry.method !== 8)
    throw new Error(`unsupported ZIP compression method ${entry.method} for ${entry.name}`)
  const raw = NodeFs.createReadStream(path, {
    start,
    end: start + entry.compressedSize - 1,
    highWaterMark: chunkSize
  })
  if (entry.method === 0) return raw
  return NodeStream.pipeline(raw, NodeZlib.createInflateRaw({ chunkSize }), () => {})
}

/** The whole text of a (small) entry. */
export const text = async (path: string, entry: Entry): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of await open(path, entry)) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}
