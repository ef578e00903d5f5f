/**
 * The command-line options of a migration's steps in a test: the workspace and the runs under the test's
 * own directory (so nothing lands in the repository's runs/), and the target's base URL.
 */
import * as NodePath from "node:path"

export const migration = (dir: string, baseUrl: string) => {
  const workspace = NodePath.join(dir, "ws")
  const runs = ["--runs-dir", NodePath.join(dir, "runs")]
  return {
    workspace,
    /** `--workspace`, `--base-url`, `--runs-dir`: what plan, load, reconcile and rollback take. */
    common: ["--workspace", workspace, "--base-url", baseUrl, ...runs],
    /** `extract --source <source>` (default xero) of `input` into the workspace. */
    extract: (input: string, source: "xero" | "qbo" | "generic" = "xero") => [
      "extract",
      "--source",
      source,
      "--input",
      input,
      "--workspace",
      workspace,
      ...runs
    ]
  }
}
