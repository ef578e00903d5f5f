/**
 * The repository stands alone: no file of it refers to the reference folder that sits beside the project
 * (`..` + `/shared`), and the platform's OpenAPI document it vendors instead is the pinned release, with its
 * licence beside it.
 */
import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as NodeCrypto from "node:crypto"
import * as NodeFs from "node:fs"
import * as NodePath from "node:path"

const root = NodePath.resolve(import.meta.dirname, "../..")

/** The reference folder as a path from the repository, built from parts so that this file does not hold it. */
const OUTSIDE = ["/", "\\"].map((separator) => ["..", "shared"].join(separator))

/** Folders that are not the repository's own text: dependencies, builds, run artifacts. */
const SKIPPED = new Set(["node_modules", ".git", "dist", "runs", "coverage", ".workspace"])

/** Every file below `dir` outside the skipped folders, relative to the root. */
const walk = (dir: string): Array<string> =>
  NodeFs.readdirSync(NodePath.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = dir === "" ? e.name : `${dir}/${e.name}`
    if (e.isDirectory()) return SKIPPED.has(e.name) ? [] : walk(path)
    return e.isFile() ? [path] : []
  })

/** The repository's files: tracked and not ignored ones from git when there is a checkout, else a walk. */
const repositoryFiles = (): Array<string> => {
  const git = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  if (git.status !== 0 || git.stdout === "") return walk("")
  return git.stdout.split("\0").filter((f) => f !== "" && NodeFs.existsSync(NodePath.join(root, f)))
}

/** Binary files (images, workbooks) hold a NUL byte early on; they are not text to search. */
const isText = (bytes: Buffer) => !bytes.subarray(0, 8192).includes(0)

describe("the repository stands alone", () => {
  it("no file refers to the reference folder beside the project", () => {
    const files = repositoryFiles()
    assert.includeMembers(
      files,
      ["README.md", "test/repo/StandAlone.test.ts"],
      "the search saw the repository"
    )
    const hits: Array<string> = []
    for (const file of files) {
      const bytes = NodeFs.readFileSync(NodePath.join(root, file))
      if (!isText(bytes)) continue
      bytes
        .toString("utf8")
        .split("\n")
        .forEach((line, i) => {
          if (OUTSIDE.some((needle) => line.includes(needle))) hits.push(`${file}:${i + 1}: ${line.trim()}`)
        })
    }
    assert.deepStrictEqual(hits, [], `refer to a folder outside the repository:\n${hits.join("\n")}`)
  })

  it("the vendored OpenAPI document is the pinned release, with its licence beside it", () => {
    const vendor = NodePath.join(root, "vendor", "platform-openapi")
    const sha256 = NodeCrypto.createHash("sha256")
      .update(NodeFs.readFileSync(NodePath.join(vendor, "platform-openapi.json")))
      .digest("hex")
    assert.strictEqual(sha256, "e4308b3792a1a8067b1399c9e3408c50d236cf04ed5188417b4416d6e592c07e")
    const licence = NodePath.join(vendor, "LICENSE")
    assert.isTrue(NodeFs.existsSync(licence), "vendor/platform-openapi/LICENSE exists")
    assert.match(NodeFs.readFileSync(licence, "utf8"), /^MIT License\b/)
  })
})
