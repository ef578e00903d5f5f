/**
 * Byte-level reading of an XLSX's XML parts for the streaming readers (sheets, shared strings): a part's
 * inflated bytes cut into regions of whole elements, and a scanner over a region that reads tags, attributes
 * and text without building a DOM or event objects — only the strings a caller asks for are made.
 */
import type * as NodeStream from "node:stream"
import * as Zip from "./Zip.js"

export const LT = 60
export const GT = 62
const SLASH = 47
const EQ = 61
const BANG = 33
const QMARK = 63
const COLON = 58
const DQUOTE = 34
const SQUOTE = 39
const LBRACKET = 91

const CHUNK = 64 * 1024
const EMPTY = Buffer.alloc(0)
const CDATA = Buffer.from("<![CDATA[", "latin1")
const CDATA_END = Buffer.from("]]>", "latin1")
const COMMENT_END = Buffer.from("-->", "latin1")
const PI_END = Buffer.from("?>", "latin1")

/** The uncompressed bytes of `entry` as a stream of chunks of about 64 KB (see `Zip.open`). */
export const open = (path: string, entry: Zip.Entry): Promise<NodeStream.Readable> =>
  Zip.open(path, entry, CHUNK)

const isSpace = (c: number | undefined): boolean => c === 32 || c === 10 || c === 13 || c === 9

/**
 * Where the last open tag named `name` (with any prefix) starts in `b`, or -1. Text and attribute values
 * cannot hold `<` unescaped, so a `<` followed by the name is always a tag (comments and CDATA aside).
 */
const lastOpen = (b: Buffer, name: Buffer): number => {
  for (let i = b.length - name.length - 1; i > 0; i--) {
    i = b.lastIndexOf(name, i)
    if (i <= 0) return -1
    const after = b[i + name.length]
    if (!(isSpace(after) || after === GT || after === SLASH)) continue
    let j = i - 1
    if (b[j] === COLON) for (j--; j > 0 && b[j]! > 32 && b[j] !== LT && b[j] !== SLASH; j--);
    if (b[j] === LT) return j
  }
  return -1
}

/** Where the end tag `</name>` (with any prefix) that comes first in `b` ends, or -1. */
const firstClose = (b: Buffer, name: Buffer): number => {
  for (let i = b.indexOf(name); i > 0; i = b.indexOf(name, i + 1)) {
    if (b[i + name.length] !== GT) continue
    let j = i - 1
    if (b[j] === COLON) for (j--; j > 0 && b[j]! > 32 && b[j] !== LT && b[j] !== SLASH; j--);
    if (b[j] === SLASH && b[j - 1] === LT) return i + name.length + 1
  }
  return -1
}

/**
 * The bytes of a part cut into regions, each ending just before an element named `element` opens, so that
 * every such element lies whole in one region: a region holds about one chunk, plus the element that
 * straddles its end. Reading stops after the end tag `</stop>` if given (the rest of the part is not read);
 * otherwise the last region is the rest of the part.
 */
export async function* regions(
  chunks: AsyncIterable<Buffer>,
  element: string,
  stop?: string
): AsyncGenerator<Buffer> {
  const name = Buffer.from(element, "latin1")
  const end = stop === undefined ? undefined : Buffer.from(stop, "latin1")
  let pieces: Array<Buffer> = []
  for await (const chunk of chunks) {
    const over = end === undefined ? -1 : firstClose(chunk, end)
    if (over >= 0) {
      // An end tag split across two chunks is missed: the rest of the part is then read as the last region.
      pieces.push(chunk.subarray(0, over))
      yield Buffer.concat(pieces)
      return
    }
    const cut = lastOpen(chunk, name)
    if (cut < 0) {
      pieces.push(chunk)
      continue
    }
    pieces.push(chunk.subarray(0, cut))
    yield pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)
    pieces = [chunk.subarray(cut)]
  }
  if (pieces.length > 0) yield Buffer.concat(pieces)
}

const NAMED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#[xX]([0-9A-Fa-f]{1,6}));/g
const ESCAPE = /_x([0-9A-Fa-f]{4})_/g

/** XML entities (the five named ones and character references) replaced by their characters. */
export const decodeEntities = (s: string): string =>
  s.indexOf("&") < 0
    ? s
    : s.replace(ENTITY, (m, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
        if (name !== undefined) return NAMED[name]!
        const code = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16)
        return code <= 0x10ffff ? String.fromCodePoint(code) : m
      })

/** Excel's `_xHHHH_` escapes (for characters XML cannot hold, and `_x005F_` for an underscore) undone. */
export const unescape = (s: string): string =>
  s.indexOf("_x") < 0 ? s : s.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

/** A tag read by `Scanner.tag`. */
export const OPEN = 1
export const CLOSE = 2
/** Comments, processing instructions, CDATA outside text, DOCTYPE: skipped whole. */
export const OTHER = 3

/** The sheet's XML ended or broke off inside an element. */
const damaged = (): Error => new Error("the XML ends inside an element or is not well formed")

/**
 * A cursor over one region of XML bytes. After `tag()` on an open or end tag, `[ls, le)` is the tag's local
 * name (no prefix); after `attr()` returns true, `[an, ane)` is the attribute's name and `[av, ave)` its raw
 * value; when `attr()` returns false the open tag has ended, `selfClosing` telling whether it was `<x/>`.
 */
export class Scanner {
  b: Buffer = EMPTY
  p = 0
  end = 0
  ls = 0
  le = 0
  an = 0
  ane = 0
  av = 0
  ave = 0
  selfClosing = false

  reset(b: Buffer): void {
    this.b = b
    this.p = 0
    this.end = b.length
  }

  /** Moves to the next `<`; false at the end of the region. */
  next(): boolean {
    const i = this.b.indexOf(LT, this.p)
    this.p = i < 0 || i >= this.end ? this.end : i
    return this.p < this.end
  }

  /** Moves to the next `<` within an element, which must come before the end of the region. */
  toTag(): void {
    const b = this.b
    const end = this.end
    let p = this.p
    while (p < end && b[p] !== LT) p++
    if (p >= end) throw damaged()
    this.p = p
  }

  /** Reads the tag at `p` (a `<`): OPEN or CLOSE with its local name and `p` just after it, or OTHER skipped. */
  tag(): number {
    const b = this.b
    const end = this.end
    let p = this.p + 1
    let kind = OPEN
    const first = b[p]
    if (first === SLASH) ((kind = CLOSE), p++)
    else if (first === BANG || first === QMARK) {
      this.skipMarkup()
      return OTHER
    }
    let ls = p
    for (; p < end; p++) {
      const c = b[p]!
      if (c === COLON) ls = p + 1
      else if (c <= 32 || c === GT || c === SLASH) break
    }
    if (p >= end) throw damaged()
    this.ls = ls
    this.le = p
    this.p = p
    return kind
  }

  /** True when the local name just read is `name` (ASCII). */
  named(name: string): boolean {
    const n = name.length
    if (this.le - this.ls !== n) return false
    for (let i = 0; i < n; i++) if (this.b[this.ls + i] !== name.charCodeAt(i)) return false
    return true
  }

  /** True when the attribute just read is named `name` (ASCII, no prefix). */
  attrNamed(name: string): boolean {
    const n = name.length
    if (this.ane - this.an !== n) return false
    for (let i = 0; i < n; i++) if (this.b[this.an + i] !== name.charCodeAt(i)) return false
    return true
  }

  /** Reads the next attribute of the open tag being read; false (past the `>`) when the tag ends. */
  attr(): boolean {
    const b = this.b
    const end = this.end
    let p = this.p
    while (p < end && b[p]! <= 32) p++
    const c = b[p]
    if (c === GT) {
      this.p = p + 1
      this.selfClosing = false
      return false
    }
    if (c === SLASH) {
      if (b[p + 1] !== GT) throw damaged()
      this.p = p + 2
      this.selfClosing = true
      return false
    }
    this.an = p
    while (p < end && b[p] !== EQ && b[p]! > 32) p++
    this.ane = p
    while (p < end && b[p] !== EQ) p++
    p++
    while (p < end && b[p]! <= 32) p++
    const quote = b[p]
    if (quote !== DQUOTE && quote !== SQUOTE) throw damaged()
    let close = p + 1
    while (close < end && b[close] !== quote) close++
    if (close >= end) throw damaged()
    this.av = p + 1
    this.ave = close
    this.p = close + 1
    return true
  }

  /** Skips the rest of the open tag being read (its attributes), setting `selfClosing`. */
  skipAttrs(): void {
    while (this.attr());
  }

  /** Skips the rest of an end tag. */
  skipClose(): void {
    const b = this.b
    const end = this.end
    let p = this.p
    while (p < end && b[p] !== GT) p++
    if (p >= end) throw damaged()
    this.p = p + 1
  }

  /** Skips a comment, processing instruction, CDATA section or DOCTYPE at `p`. */
  skipMarkup(): void {
    const b = this.b
    const p = this.p
    let to: number
    if (b[p + 1] === QMARK) to = b.indexOf(PI_END, p) + PI_END.length
    else if (b[p + 2] === LBRACKET) to = b.indexOf(CDATA_END, p) + CDATA_END.length
    else if (b[p + 2] === 45) to = b.indexOf(COMMENT_END, p) + COMMENT_END.length
    else to = b.indexOf(GT, p) + 1
    if (to <= p || to > this.end) throw damaged()
    this.p = to
  }

  /** A non-negative decimal integer value of the attribute just read, or -1. */
  attrInt(): number {
    return this.int(this.av, this.ave)
  }

  /** The non-negative decimal integer in `[a, z)` (whitespace around allowed), or -1. */
  int(a: number, z: number): number {
    const b = this.b
    while (a < z && b[a]! <= 32) a++
    while (z > a && b[z - 1]! <= 32) z--
    if (a === z || z - a > 15) return -1
    let n = 0
    for (let i = a; i < z; i++) {
      const d = b[i]! - 48
      if (d < 0 || d > 9) return -1
      n = n * 10 + d
    }
    return n
  }

  /** The raw value of the attribute just read, entities decoded. */
  attrText(): string {
    return decodeEntities(this.b.toString("utf8", this.av, this.ave))
  }

  /**
   * The text of the element whose open tag was just read (not self-closing), through its end tag: entities
   * decoded, CDATA kept, comments dropped, child elements' text included.
   */
  content(): string {
    const b = this.b
    const start = this.p
    this.toTag()
    if (b[this.p + 1] === SLASH) {
      const s = b.toString("utf8", start, this.p)
      this.tag()
      this.skipClose()
      return decodeEntities(s)
    }
    let s = decodeEntities(b.toString("utf8", start, this.p))
    for (let depth = 0; ;) {
      if (
        this.p + CDATA.length <= this.end &&
        b.compare(CDATA, 0, CDATA.length, this.p, this.p + CDATA.length) === 0
      ) {
        const close = b.indexOf(CDATA_END, this.p)
        if (close < 0 || close >= this.end) throw damaged()
        s += b.toString("utf8", this.p + CDATA.length, close)
        this.p = close + CDATA_END.length
      } else {
        const kind = this.tag()
        if (kind === CLOSE) {
          this.skipClose()
          if (depth-- === 0) return s
        } else if (kind === OPEN) {
          this.skipAttrs()
          if (!this.selfClosing) depth++
        }
      }
      const from = this.p
      this.toTag()
      s += decodeEntities(b.toString("utf8", from, this.p))
    }
  }

  /**
   * The text of a string item (`<si>` or `<is>`) whose open tag was just read: its `<t>` texts, rich-text
   * runs joined, phonetic runs (`<rPh>`) left out, `_xHHHH_` escapes undone; `p` ends past its end tag.
   */
  richText(): string {
    let s = ""
    let phonetic = false
    for (let depth = 0; ;) {
      this.toTag()
      const kind = this.tag()
      if (kind === CLOSE) {
        if (depth === 0) {
          this.skipClose()
          return unescape(s)
        }
        if (this.named("rPh")) phonetic = false
        this.skipClose()
        depth--
      } else if (kind === OPEN) {
        const t = this.named("t")
        const rPh = this.named("rPh")
        this.skipAttrs()
        if (this.selfClosing) continue
        if (t) {
          const text = this.content()
          if (!phonetic) s += text
        } else {
          if (rPh) phonetic = true
          depth++
        }
      }
    }
  }
}
