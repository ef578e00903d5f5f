/**
 * A generated company taken through extract and plan, kept as a planned, never-loaded workspace that every
 * load copies; and the plans derived from it for the loader-versus-bare comparison.
 */
import * as NodePath from "node:path"
import { generateCompany } from "../src/sample/Generator.js"
import { phases, type Phase, type Plan } from "../src/transform/Plan.js"
import * as Pipeline from "./Pipeline.js"
import { measure } from "./Probe.js"
import { round } from "./Report.js"

export interface Company {
  readonly invoices: number
  readonly exportDir: string
  /** Planned, never loaded: copy it for each load. */
  readonly workspace: string
  readonly plan: Plan
  readonly baseCurrency: string
  readonly figures: {
    readonly invoices: number
    readonly sourceRows: number
    readonly operations: number
    readonly byKind: Record<string, number>
    readonly generateSeconds: number
    readonly extractSeconds: number
    readonly extractRowsPerSecond: number
    readonly planSeconds: number
    /** Peak RSS of the benchmark process while planning (it also holds what ran before), MB. */
    readonly planRssPeakMb: number
  }
}

/** Generates a company with `invoices` sales invoices, extracts it and plans it against the target at `planUrl`. */
export const prepare = async (invoices: number, planUrl: string): Promise<Company> => {
  const exportDir = Pipeline.tempDir(`xero-${invoices}`)
  const generated = await measure(async () => generateCompany({ invoices, seed: 20_251_231, out: exportDir }))
  const workspace = Pipeline.tempDir(`planned-${invoices}`)
  const extracted = await measure(() => Pipeline.extract(exportDir, workspace))
  const sourceRows = extracted.value.reduce((n, f) => n + f.lines, 0)
  const planned = await measure(() => Pipeline.plan(workspace, planUrl))
  const { plan, baseCurrency } = planned.value
  const rejects = plan.issues.filter((i) => i.severity === "reject")
  if (rejects.length > 0)
    throw new Error(`the generated company's plan rejects ${rejects.length} items, e.g. ${rejects[0]!.what}`)
  return {
    invoices,
    exportDir,
    workspace,
    plan,
    baseCurrency,
    figures: {
      invoices,
      sourceRows,
      operations: plan.ops.length,
      byKind: Pipeline.countKinds(plan) as Record<string, number>,
      generateSeconds: round(generated.seconds, 1),
      extractSeconds: round(extracted.seconds, 1),
      extractRowsPerSecond: round(sourceRows / extracted.seconds),
      planSeconds: round(planned.seconds, 1),
      planRssPeakMb: round(planned.rssPeakMb)
    }
  }
}

const masterPhases: ReadonlyArray<Phase> = phases.slice(0, phases.indexOf("transactions"))

/** The plan's master data only (currencies, rates, accounts, contacts, items), saved as a new workspace. */
export const masterWorkspace = async (company: Company): Promise<string> => {
  const workspace = Pipeline.tempDir("master")
  const ops = company.plan.ops.filter((o) => masterPhases.includes(o.phase))
  await Pipeline.savePlan(workspace, { ops, issues: [] }, company.baseCurrency)
  return workspace
}

/**
 * The plan's first `limit` invoices only, saved as a new workspace for a target that already holds the master data: their
 * dependencies on master-data operations are dropped (not in this plan), and the loader resolves those
 * references by looking them up in the target, as it does for any record a plan does not create.
 */
export const invoiceWorkspace = async (company: Company, limit: number): Promise<string> => {
  const workspace = Pipeline.tempDir("invoices")
  const ops = company.plan.ops
    .filter((o) => o.kind === "invoice")
    .slice(0, limit)
    .map((o) => ({ ...o, dependsOn: [] }))
  await Pipeline.savePlan(workspace, { ops, issues: [] }, company.baseCurrency)
  return workspace
}

export const statePathIn = (dir: string): string => NodePath.join(dir, "sandbox.db")
