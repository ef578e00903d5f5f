/**
 * Files the program ships beside its code (mappings, column profiles, the demo sample, the sandbox's
 * fixture, the staging writer thread), found from the package root, so that the same code finds them
 * whether it runs from `src/` through tsx or bundled into `dist/`.
 */
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"
import * as NodeUrl from "node:url"

const findRoot = (): string => {
  let dir = NodePath.dirname(NodeUrl.fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = NodePath.join(dir, "package.json")
    if (NodeFs.existsSync(manifest)) {
      const name = (JSON.parse(NodeFs.readFileSync(manifest, "utf8")) as { name?: string }).name
      if (name === "ledger-migrate") return dir
    }
    const up = NodePath.dirname(dir)
    if (up === dir) throw new Error(`ledger-migrate's package.json not found above ${import.meta.url}`)
    dir = up
  }
}

let root: string | undefined

/** The directory holding ledger-migrate's package.json. */
export const packageRoot = (): string => (root ??= findRoot())

/** The absolute path of a shipped file or directory, given relative to the package root. */
export const resource = (...segments: ReadonlyArray<string>): string =>
  NodePath.join(packageRoot(), ...segments)
