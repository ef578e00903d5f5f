/**
 * `npm run sample -- --out DIR [--invoices N] [--seed S]`: writes the sample company's Xero exports and its
 * own year-end reports (Trial Balance, Aged Receivables / Payables Detail) to DIR (defaults: 150 invoices,
 * seed 42), and the same reports at each `--also-at` date, and prints what was generated.
 * `--source qbo` writes the QuickBooks Online sample company instead (defaults: 80 invoices, seed 42).
 */
import { generateCompany, type Options } from "./Generator.js"
import * as Money from "./Money.js"
import * as Qbo from "./qbo/Generator.js"

const USAGE =
  "usage: npm run sample -- [--source xero|qbo] --out DIR [--invoices N] [--seed S] [--also-at YYYY-MM-DD,…]"

/** The QuickBooks sample's default size. */
const QBO_INVOICES = 80

const parseArgs = (argv: ReadonlyArray<string>): Options & { readonly source: "xero" | "qbo" } => {
  const values = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ""
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined]
    if (!["--out", "--invoices", "--seed", "--also-at", "--source"].includes(flag))
      throw new Error(`unknown argument ${arg}`)
    const value = inline ?? argv[++i]
    if (value === undefined) throw new Error(`${flag} needs a value`)
    values.set(flag, value)
  }
  const out = values.get("--out")
  if (out === undefined) throw new Error("--out is required")
  const integer = (flag: string, fallback: number): number => {
    const text = values.get(flag)
    if (text === undefined) return fallback
    if (!/^-?\d+$/.test(text)) throw new Error(`${flag} must be an integer: ${text}`)
    return Number(text)
  }
  const alsoAt = values.get("--also-at")
  const source = values.get("--source") ?? "xero"
  if (source !== "xero" && source !== "qbo") throw new Error(`--source must be xero or qbo: ${source}`)
  if (source === "qbo" && alsoAt !== undefined) throw new Error("--also-at is for the Xero sample only")
  return {
    source,
    out,
    invoices: integer("--invoices", source === "qbo" ? QBO_INVOICES : 150),
    seed: integer("--seed", 42),
    ...(alsoAt !== undefined ? { alsoAt: alsoAt.split(",") } : {})
  }
}

try {
  const options = parseArgs(process.argv.slice(2))
  const started = performance.now()
  const summary = options.source === "qbo" ? Qbo.generateQbo(options) : generateCompany(options)
  const seconds = ((performance.now() - started) / 1000).toFixed(2)
  process.stdout.write(
    `${JSON.stringify(summary, (_, v: unknown) => (typeof v === "bigint" ? Money.format2(Money.cents(v)) : v), 2)}\nwritten to ${options.out} in ${seconds}s\n`
  )
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`)
  process.exitCode = 1
}
