/**
 * A real browser for tests that look at a page: headless Chromium found on the PATH (or `CHROMIUM`), run with
 * its own throwaway profile. `screenshot` writes a PNG of the page; `dumpDom` returns the DOM after layout.
 */
import { execFile } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"
import { tempDir } from "./TempDir.js"

const names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

/** The Chromium binary, or undefined when the machine has none. */
export const chromium: string | undefined = (() => {
  const own = process.env["CHROMIUM"]
  if (own && NodeFs.existsSync(own)) return own
  for (const dir of (process.env["PATH"] ?? "").split(NodePath.delimiter))
    for (const n of names) {
      const p = NodePath.join(dir, n)
      if (NodeFs.existsSync(p)) return p
    }
  return undefined
})()

const run = (args: ReadonlyArray<string>) =>
  new Promise<string>((resolve, reject) => {
    if (chromium === undefined) return reject(new Error("no Chromium on this machine"))
    const profile = tempDir("chromium-profile")
    execFile(
      chromium,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        `--user-data-dir=${profile}`,
        ...args
      ],
      { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))
    )
  })

/** Renders `page` (a local HTML file) at `width × height` into the PNG `out`. */
export const screenshot = async (page: string, out: string, width = 1280, height = 2000) => {
  await run([`--screenshot=${out}`, `--window-size=${width},${height}`, pathToFileURL(page).href])
  return NodeFs.readFileSync(out)
}

/** The page's DOM as Chromium serializes it after loading. */
export const dumpDom = (page: string) => run(["--dump-dom", pathToFileURL(page).href])

/**
 * Says loudly, when no Chromium is found, that `page` is not checked in a real browser and that the browser
 * tests of the file are skipped rather than passed.
 */
export const warnWithoutChromium = (page: string): void => {
  if (chromium !== undefined) return
  const line = (text: string) => `##  ${text.padEnd(70)}##`
  console.warn(
    [
      "",
      "#".repeat(76),
      line(`NO CHROMIUM FOUND: ${page} is NOT checked in a real browser.`),
      line("Install it (Debian: apt-get install chromium) or set CHROMIUM=<path>."),
      line("The browser checks are reported as SKIPPED, not passed."),
      "#".repeat(76),
      ""
    ].join("\n")
  )
}
