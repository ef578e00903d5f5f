/**
 * Shared state while a plan is built: the operations so far, the issues, and how source names resolve to
 * target references (accounts by code and name, tax profiles, contacts, items). Building a body goes through
 * its schema class; a body that does not decode becomes a reject naming the schema path and the source rows.
 */
import { relieve } from "../Memory.js"
import * as Schema from "effect/Schema"
import { choiceKey, type Choice, type Matching, type Sheet } from "../review/Matching.js"
import { encoderOf } from "./CompiledEncoder.js"
import type { Mappings } from "./Mappings.js"
import { normalizeName } from "./Mappings.js"
import { canonicalJson, phases, type OpKind, type OpSink, type Phase } from "./Plan.js"
import type { AccountPairing } from "./RecordIdentity.js"
import * as Refs from "./Refs.js"
import type { Issue } from "./SourceModel.js"
import type { TargetSnapshot, TargetTaxProfile } from "./TargetSnapshot.js"

/** A problem found while building one operation; becomes a reject issue for its lineage. */
export class PlanProblem {
  constructor(
    readonly what: string,
    readonly why: string,
    readonly fix: string
  ) {}
}

export interface AccountTarget {
  /** The reference to put in bodies. */
  readonly ref: string
  /** The op that creates it, when the plan creates it. */
  readonly opKey: string | undefined
  readonly name: string
  readonly classificationType: string
}

/** The phases whose operations' keys `PlanContext.opKeys` keeps. */
const lookedUp: ReadonlySet<Phase> = new Set(
  phases.filter((p) => p !== "transactions" && p !== "settlements")
)

/**
 * The build's heap ceiling's floor (`Memory.relieve`), under the stages' 128 MB: at 100,000 invoices what is
 * live as the build starts is 64 MB, its ceiling that plus 32 MB, so that the stages' floor let garbage take
 * the heap to 128 MB in use before a full collection, where the build's RSS is highest. With 96 MB, plan at
 * 100,000 invoices peaked at 261.3-272.0 MB against 275.3-277.3 MB (five runs against three, interleaved) in
 * about 0.5 s more of 29-32 s; at 20,000 invoices 224.1-226.3 against 224.4-225.8 MB (three each), in the
 * same time. A floor of 64 MB: 260.3-262.6 MB at 100,000 invoices (two runs) in 1-1.5 s more.
 */
export const BUILD_FLOOR = 96 * 1024 * 1024

export class PlanContext {
  readonly issues: Array<Issue> = []
  /**
   * The keys of the operations so far that later ones look up by key (`opKeys.has`): tags, currencies, rates
   * and master data. Transactions and settlements are found through the planners' own maps, and keeping
   * their keys (384,056 at 100,000 invoices) would hold every one of them to the end of the build.
   */
  readonly opKeys = new Set<string>()
  /** Operations added so far. */
  private added = 0
  readonly accountsByCode = new Map<string, AccountTarget>()
  readonly accountsByName = new Map<string, AccountTarget>()
  /** Each planned source account and the target account it becomes (the reconciliation pairs by these). */
  readonly accountPairings: Array<AccountPairing> = []
  readonly contacts = new Map<string, string>()
  readonly items = new Map<string, { readonly ref: string; readonly opKey: string | undefined }>()
  readonly taxProfiles: Map<string, TargetTaxProfile>

  constructor(
    readonly snapshot: TargetSnapshot,
    readonly mappings: Mappings,
    /** What each source account, tax code, contact and item becomes: suggestions, or the review's decisions. */
    readonly matching: Matching,
    /** Where the operations go as they are built. */
    readonly sink: OpSink
  ) {
    this.taxProfiles = new Map(snapshot.taxProfiles.map((p) => [normalizeName(p.name), p]))
  }

  /** The choice for a source record on a review sheet; undefined when the matching did not see it. */
  choice(sheet: Sheet, key: string): Choice | undefined {
    return this.matching.choices.get(choiceKey(sheet, key))
  }

  /** Adds an operation whose body is built from `make` through `schema`; problems become rejects. */
  add<A, I>(
    spec: {
      key: string
      phase: Phase
      kind: OpKind
      naturalKey: string
      sortKey: string
      lineage: ReadonlyArray<string>
    },
    schema: Schema.Schema<A, I>,
    make: () => { readonly body: A; readonly dependsOn: ReadonlyArray<string> }
  ): boolean {
    try {
      const { body, dependsOn } = make()
      const encoded = encoderOf(schema)(body)
      const deps = [...new Set(dependsOn.filter((d) => d !== spec.key))].sort()
      const json = canonicalJson(encoded)
      this.sink.put({ ...spec, dependsOn: deps }, json, encoded)
      if (lookedUp.has(spec.phase)) this.opKeys.add(spec.key)
      // The heap's ceiling (`Memory.relieve`): building a large plan makes garbage as fast as operations.
      if (++this.added % 1000 === 0) relieve(BUILD_FLOOR)
      return true
    } catch (e) {
      if (e instanceof PlanProblem) {
        this.reject(spec.lineage, `${spec.key}: ${e.what}`, e.why, e.fix)
      } else if (e instanceof Error && e.name === "ParseError") {
        this.reject(
          spec.lineage,
          `${spec.key}: the body does not satisfy the platform's schema`,
          e.message,
          "correct the source rows named"
        )
      } else {
        throw e
      }
      return false
    }
  }

  reject(lineage: ReadonlyArray<string>, what: string, why: string, fix: string): void {
    this.issues.push({ severity: "reject", lineage, what, why, fix })
  }

  warn(lineage: ReadonlyArray<string>, what: string, why: string, fix: string): void {
    this.issues.push({ severity: "warning", lineage, what, why, fix })
  }

  /** The account a source account code names; a PlanProblem when the chart has no such code. */
  account(code: string): AccountTarget {
    const a = this.accountsByCode.get(code.trim()) ?? this.accountsByName.get(normalizeName(code))
    if (!a) {
      throw new PlanProblem(
        `account code ${JSON.stringify(code)} is not in the chart of accounts`,
        "every line must post to an account of the migrated chart",
        "add the account to ChartOfAccounts.csv or correct the code"
      )
    }
    return a
  }

  /** The tax profile reference for a source tax rate name; undefined when it maps to no profile. */
  taxProfile(
    sourceTaxType: string
  ): { readonly ref: string; readonly profile: TargetTaxProfile } | undefined {
    if (sourceTaxType.trim() === "") return undefined
    const choice = this.choice("Tax codes", normalizeName(sourceTaxType))
    if (choice?.kind === "no-profile") return undefined
    if (choice?.kind === "none") {
      // A code that names its rate ("Austin TX 8.25%") says which profile the platform lacks.
      this.taxProfileByRate(sourceTaxType)
      throw new PlanProblem(
        `tax rate ${JSON.stringify(sourceTaxType)} has no tax profile`,
        "tax profiles are never created; no existing profile fits it",
        `decide it on the Tax codes sheet of review.xlsx (review --workspace WS), or add "${sourceTaxType}": "<tax profile name>" to ${this.mappings.taxCodes.file}`
      )
    }
    if (choice?.kind === "adopt") {
      const chosen = this.taxProfiles.get(normalizeName(choice.target))
      if (chosen) return { ref: Refs.ref("taxProfile", chosen.name), profile: chosen }
    }
    const listed = this.mappings.taxCodes.get(sourceTaxType)
    const mapped = listed !== undefined ? listed : this.taxProfileByRate(sourceTaxType)
    if (mapped === undefined) {
      throw new PlanProblem(
        `tax rate ${JSON.stringify(sourceTaxType)} has no mapping`,
        "tax profiles are never created; each source rate must map to an existing one",
        `add "${sourceTaxType}": "<tax profile name>" to ${this.mappings.taxCodes.file}`
      )
    }
    if (mapped === null) return undefined
    const profile = this.taxProfiles.get(normalizeName(mapped))
    if (!profile) {
      throw new PlanProblem(
        `tax rate ${JSON.stringify(sourceTaxType)} maps to "${mapped}", which the target does not have`,
        "tax profiles are read from the target and never created",
        `map it to one of: ${[...this.taxProfiles.values()].map((p) => p.name).join(", ")}`
      )
    }
    return { ref: Refs.ref("taxProfile", profile.name), profile }
  }

  /**
   * A source rate whose name ends in its percentage (`8.25%`, `Austin TX 8.25%`, as QuickBooks' sales tax is
   * inferred) and is not in the tax-codes mapping: the target's tax profile of that rate with that very name,
   * else its one sales tax profile of that rate (undefined when the name ends in no percentage); a
   * PlanProblem when the target has none, or several, of that rate.
   */
  private taxProfileByRate(sourceTaxType: string): string | undefined {
    const m = /(?:^|\s)(\d+(?:\.\d+)?)\s*%$/.exec(sourceTaxType.trim())
    if (m === null) return undefined
    const rate = Number(m[1])
    const all = [...this.taxProfiles.values()].filter((p) => p.vatValue === rate)
    const named = all.filter((p) => normalizeName(p.name) === normalizeName(sourceTaxType))
    const sales = all.filter((p) => p.appliesToSale)
    const found = named.length > 0 ? named : sales.length > 0 ? sales : all
    if (found.length === 1) return found[0]!.name
    throw new PlanProblem(
      found.length === 0
        ? `no tax profile of rate ${sourceTaxType} exists in the target`
        : `the target has ${found.length} tax profiles of rate ${sourceTaxType} (${found.map((p) => p.name).join(", ")})`,
      "tax profiles are read from the target and never created; a line taxed at this rate needs one",
      found.length === 0
        ? `create a ${sourceTaxType} sales tax profile on the platform, or add "${sourceTaxType}": "<tax profile name>" to ${this.mappings.taxCodes.file} (or decide it on the Tax codes sheet of review.xlsx)`
        : `add "${sourceTaxType}": "<one of them>" to ${this.mappings.taxCodes.file}`
    )
  }

  /** The reference for a contact by name (created by this plan or already in the target). */
  contact(name: string): { readonly ref: string; readonly opKey: string | undefined } {
    const key = this.contacts.get(normalizeName(name))
    if (key === undefined) {
      throw new PlanProblem(
        `contact ${JSON.stringify(name)} is unknown`,
        "a document needs its contact",
        "add the contact"
      )
    }
    return {
      ref: Refs.ref("contact", key),
      opKey: this.opKeys.has(Refs.opKey("contact", key)) ? Refs.opKey("contact", key) : undefined
    }
  }
}

/** Keys of the operations among `keys` that this plan creates (dependencies must be plan operations). */
export const deps = (...keys: ReadonlyArray<string | undefined>): Array<string> =>
  keys.filter((k): k is string => k !== undefined)
