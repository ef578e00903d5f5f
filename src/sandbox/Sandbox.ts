/** Starts the embedded platform sandbox: an HTTP emulator of the accounting API with a real double-entry ledger. */
import type { AddressInfo } from "node:net"
import { Faults, type FaultOptions } from "./Faults.js"
import { loadFixture, type OrganizationFixture } from "./Fixture.js"
import { ok } from "./Http.js"
import { Org } from "./Org.js"
import * as Accounts from "./resources/Accounts.js"
import * as BankRecords from "./resources/BankRecords.js"
import * as CashEntries from "./resources/CashEntries.js"
import * as Cashflows from "./resources/Cashflows.js"
import * as Contacts from "./resources/Contacts.js"
import * as Credits from "./resources/Credits.js"
import * as Currencies from "./resources/Currencies.js"
import * as DocumentRoutes from "./resources/DocumentRoutes.js"
import * as Extras from "./resources/Extras.js"
import * as Items from "./resources/Items.js"
import * as Journals from "./resources/Journals.js"
import * as Magic from "./resources/Magic.js"
import * as Payments from "./resources/Payments.js"
import * as Reports from "./resources/Reports.js"
import * as TaxProfiles from "./resources/TaxProfiles.js"
import * as UniversalSearch from "./resources/UniversalSearch.js"
import * as Withholding from "./resources/Withholding.js"
import { Router } from "./Router.js"
import { seed } from "./Seed.js"
import { makeServer } from "./Server.js"
import { Store } from "./Store.js"

export type { FaultOptions } from "./Faults.js"
export type { OrganizationFixture } from "./Fixture.js"

/** How to start a sandbox. */
export interface SandboxOptions {
  /** 0 or undefined = a free port. */
  readonly port?: number
  /** Default "127.0.0.1". */
  readonly host?: string
  /** SQLite file; undefined = in-memory. Restarting on the same file keeps all state. */
  readonly statePath?: string
  /** Path or object; default = the shipped default fixture. Applied only when the state database is new. */
  readonly fixture?: string | OrganizationFixture
  /** If given, only these keys are accepted (they must still start with "jk-"); otherwise any "jk-" key. */
  readonly apiKeys?: ReadonlyArray<string>
  readonly faults?: FaultOptions
  /** Server-side row cap of searches and lists (default 10000); pages reaching it answer `truncated: true`. */
  readonly searchMaxRows?: number
  /** NDJSON file: one line per request `{ method, path, status, ms, fault? }`. */
  readonly requestLog?: string
  /**
   * Told of each write the sandbox has committed (its method and path, `/api/v1` included), before it is
   * answered: a test can kill its client at a chosen write, which the client then never hears of. The
   * request log is written afterwards, and asynchronously: under load it lags by more than a short stretch
   * of writes.
   */
  readonly onWrite?: (method: string, path: string) => void
  /** Told of each read served (a GET, a search or a report; its method and path, `/api/v1` included). */
  readonly onRead?: (method: string, path: string) => void
}

/** A running sandbox. */
export interface RunningSandbox {
  /** e.g. http://127.0.0.1:43123 (without /api/v1). */
  readonly url: string
  readonly port: number
  close(): Promise<void>
}

/** Builds the route table of every implemented endpoint. */
export const routes = (org: Org): Router => {
  const r = new Router()
  r.get("/organization", () =>
    ok({
      data: {
        name: org.fixture.name,
        currencyCode: org.base,
        baseCurrency: org.base,
        timeZone: org.fixture.timeZone
      }
    })
  )
  for (const m of [
    Currencies,
    Accounts,
    TaxProfiles,
    Contacts,
    Items,
    DocumentRoutes,
    Payments,
    Credits,
    Journals,
    CashEntries,
    Cashflows,
    BankRecords,
    UniversalSearch,
    Extras,
    Magic,
    Reports
  ])
    m.register(r, org)
  Withholding.register(r)
  return r
}

/** Starts a sandbox and resolves once it listens. */
export const startSandbox = async (options: SandboxOptions = {}): Promise<RunningSandbox> => {
  const store = new Store(options.statePath)
  const fixture = loadFixture(options.fixture)
  const org = new Org(store, fixture, options.searchMaxRows ?? 10_000)
  if (store.fresh) seed(org, fixture)
  else store.load()
  const front = makeServer({
    router: routes(org),
    store,
    faults: new Faults(options.faults),
    apiKeys: options.apiKeys === undefined ? undefined : new Set(options.apiKeys),
    requestLog: options.requestLog,
    onWrite: options.onWrite,
    onRead: options.onRead
  })
  await new Promise<void>((resolve, reject) => {
    front.server.once("error", reject)
    front.server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve())
  })
  const port = (front.server.address() as AddressInfo).port
  const host = options.host ?? "127.0.0.1"
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        front.server.close(() => resolve())
        front.server.closeAllConnections()
      })
      if (front.log !== undefined) await new Promise<void>((resolve) => front.log?.end(() => resolve()))
      store.close()
    }
  }
}
