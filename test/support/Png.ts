/**
 * Just enough of PNG to look at a screenshot: decodes 8-bit, non-interlaced greyscale, RGB or RGBA images
 * (what headless Chromium writes) into RGB pixels, and measures how much of the image is its commonest colour.
 */
import * as NodeZlib from "node:zlib"

export interface Image {
  readonly width: number
  readonly height: number
  /** `width × height` pixels, 3 bytes each (RGB). */
  readonly rgb: Uint8Array
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

export const decode = (file: Buffer): Image => {
  if (file.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG")
  let width = 0
  let height = 0
  let channels = 0
  const idat: Array<Buffer> = []
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at)
    const type = file.toString("latin1", at + 4, at + 8)
    const data = file.subarray(at + 8, at + 8 + length)
    if (type === "IHDR") {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const [depth, colour, , , interlace] = [data[8], data[9], data[10], data[11], data[12]]
      channels = colour === 0 ? 1 : colour === 2 ? 3 : colour === 6 ? 4 : colour === 4 ? 2 : 0
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`)
    } else if (type === "IDAT") idat.push(data)
    at += 12 + length
  }
  const raw = NodeZlib.inflateSync(Buffer.concat(idat))
  const stride = width * channels
  const pixels = new Uint8Array(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0
      const v = line[x]!
      pixels[y * stride + x] =
        (filter === 0
          ? v
          : filter === 1
            ? v + left
            : filter === 2
              ? v + up
              : filter === 3
                ? v + ((left + up) >> 1)
                : v + paeth(left, up, upLeft)) & 0xff
    }
  }
  const rgb = new Uint8Array(width * height * 3)
  for (let i = 0; i < width * height; i++) {
    const p = i * channels
    const grey = channels <= 2
    rgb[i * 3] = pixels[p]!
    rgb[i * 3 + 1] = grey ? pixels[p]! : pixels[p + 1]!
    rgb[i * 3 + 2] = grey ? pixels[p]! : pixels[p + 2]!
  }
  return { width, height, rgb }
}

/** The share (0–1) of pixels that are the image's commonest colour, and how many colours it uses. */
export const colourProfile = (image: Image): { readonly dominant: number; readonly colours: number } => {
  const counts = new Map<number, number>()
  for (let i = 0; i < image.rgb.length; i += 3) {
    const c = (image.rgb[i]! << 16) | (image.rgb[i + 1]! << 8) | image.rgb[i + 2]!
    counts.set(c, (counts.get(c) ?? 0) + 1)
  }
  const top = Math.max(...counts.values())
  return { dominant: top / (image.width * image.height), colours: counts.size }
}
