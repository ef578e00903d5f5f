/**
 * What the tests that run the README's shell blocks share: the repository root, a free loopback port, a bash
 * script run from the root with its output collected, and a README block's lines.
 */
import { spawn } from "node:child_process"
import * as NodeFs from "node:fs"
import * as NodeNet from "node:net"
import * as NodePath from "node:path"

export const root = NodePath.resolve(import.meta.dirname, "../..")

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = NodeNet.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as NodeNet.AddressInfo
      server.close(() => resolve(port))
    })
  })

/** Runs `script` with bash from the repository root; `out` is its stdout and stderr as they came. */
export const bash = (script: string) =>
  new Promise<{ status: number | null; out: string }>((resolve) => {
    const child = spawn("bash", ["-c", script], {
      cwd: root,
      env: { ...process.env, CI: "true" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (d) => (out += String(d)))
    child.stderr.on("data", (d) => (out += String(d)))
    child.on("exit", (status) => resolve({ status, out }))
  })

/** The lines of the README's shell block between the `readme-<name>` markers. */
export const readmeBlock = (name: string): Array<string> => {
  const readme = NodeFs.readFileSync(NodePath.join(root, "README.md"), "utf8")
  const block = new RegExp(
    `<!-- readme-${name}:begin -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\s*<!-- readme-${name}:end -->`
  ).exec(readme)
  if (!block) throw new Error(`README.md has no readme-${name} block`)
  return block[1]!.trim().split("\n")
}
