import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { billBody, invoiceBody, paymentBody, world, type World } from "./support.js"

type Op =
  | {
      readonly t: "invoice" | "bill" | "ccn"
      readonly cents: number
      readonly tax: number
      readonly inclusive: boolean
      readonly usd: boolean
    }
  | { readonly t: "pay"; readonly doc: number; readonly part: number; readonly usdBank: boolean }
  | { readonly t: "void"; readonly doc: number }
  | { readonly t: "apply"; readonly doc: number; readonly note: number; readonly part: number }
  | { readonly t: "journal"; readonly cents: number }
  | { readonly t: "unpay"; readonly doc: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    t: fc.constantFrom("invoice" as const, "bill" as const, "ccn" as const),
    cents: fc.integer({ min: 1, max: 500_000 }),
    tax: fc.integer({ min: 0, max: 2 }),
    inclusive: fc.boolean(),
    usd: fc.boolean()
  }),
  fc.record({
    t: fc.constant("pay" as const),
    doc: fc.nat(40),
    part: fc.double({ min: 0.05, max: 1, noNaN: true }),
    usdBank: fc.boolean()
  }),
  fc.record({ t: fc.constant("void" as const), doc: fc.nat(40) }),
  fc.record({
    t: fc.constant("apply" as const),
    doc: fc.nat(40),
    note: fc.nat(40),
    part: fc.double({ min: 0.05, max: 1, noNaN: true })
  }),
  fc.record({ t: fc.constant("journal" as const), cents: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ t: fc.constant("unpay" as const), doc: fc.nat(40) })
)

interface Doc {
  readonly path: string
  readonly id: string
}

const open = (d: {
  totalAmount: number
  paymentRecords: Array<{ transactionAmount: number }>
  refunds?: Array<{ transactionAmount: number }>
  creditApplications: Array<{ amountApplied: number }>
}) => {
  const c = (n: number) => Math.round(n * 100)
  return (
    c(d.totalAmount) -
    [...d.paymentRecords, ...(d.refunds ?? [])].reduce((s, p) => s + c(p.transactionAmount), 0) -
    d.creditApplications.reduce((s, a) => s + c(a.amountApplied), 0)
  )
}

const run = async (w: World, ops: ReadonlyArray<Op>) => {
  const made: Doc[] = []
  const taxes = [
    ["SR 9%", "TX 9%"],
    ["ZR", "NR"],
    ["OS", "OS"]
  ] as const
  const get = async (d: Doc) => {
    const r = await w.api.get(`${d.path}/${d.id}`)
    return r.status === 404 ? undefined : (r.body.data ?? r.body)
  }
  for (const o of ops) {
    switch (o.t) {
      case "invoice":
      case "bill":
      case "ccn": {
        const sale = o.t !== "bill"
        const pair = taxes[o.tax] ?? taxes[0]
        const line = {
          quantity: 1,
          unitPrice: o.cents / 100,
          taxProfileResourceId: w.tax(sale ? pair[0] : pair[1])
        }
        const over = { taxInclusion: o.inclusive, ...(o.usd ? { currency: { sourceCurrency: "USD" } } : {}) }
        const body = sale ? invoiceBody(w, over, line) : billBody(w, over, line)
        const path = o.t === "invoice" ? "/invoices" : o.t === "bill" ? "/bills" : "/customer-credit-notes"
        const r = await w.api.post(path, body)
        if (r.status === 201) made.push({ path, id: r.body.data.resourceId })
        break
      }
      case "pay": {
        const d = made[o.doc % Math.max(made.length, 1)]
        if (d === undefined || d.path === "/customer-credit-notes") break
        const doc = await get(d)
        if (doc === undefined || doc.status !== "UNPAID") break
        const left = open(doc)
        if (left <= 0) break
        const tx = Math.max(1, Math.round(left * o.part)) / 100
        const bank = o.usdBank && doc.currencyCode === "USD"
        const pay = doc.currencyCode === "USD" && !bank ? Math.round(tx * 135) / 100 : tx
        await w.api.post(
          `${d.path}/${d.id}/payments`,
          paymentBody(w, pay, { transactionAmount: tx, accountResourceId: bank ? w.usdBank : w.bank })
        )
        break
      }
      case "unpay": {
        const d = made[o.doc % Math.max(made.length, 1)]
        if (d === undefined || d.path === "/customer-credit-notes") break
        const first = (await get(d))?.paymentRecords[0]
        if (first !== undefined) await w.api.delete(`/payments/${first.resourceId}`)
        break
      }
      case "void": {
        const d = made[o.doc % Math.max(made.length, 1)]
        if (d !== undefined) await w.api.delete(`${d.path}/${d.id}`)
        break
      }
      case "apply": {
        const invoices = made.filter((d) => d.path === "/invoices")
        const notes = made.filter((d) => d.path === "/customer-credit-notes")
        const inv = invoices[o.doc % Math.max(invoices.length, 1)]
        const note = notes[o.note % Math.max(notes.length, 1)]
        if (inv === undefined || note === undefined) break
        const [a, b] = [await get(inv), await get(note)]
        if (a === undefined || b === undefined) break
        const left = Math.min(open(a), open(b))
        if (left <= 0) break
        await w.api.post(`/invoices/${inv.id}/credits`, {
          credits: [
            { creditNoteResourceId: note.id, amountApplied: Math.max(1, Math.round(left * o.part)) / 100 }
          ]
        })
        break
      }
      case "journal":
        await w.api.post("/journals", {
          reference: `PJ-${o.cents}`,
          valueDate: "2024-03-02",
          journalEntries: [
            { accountResourceId: w.bank, type: "DEBIT", amount: o.cents / 100 },
            { accountResourceId: w.account("Sales"), type: "CREDIT", amount: o.cents / 100 }
          ]
        })
        break
    }
  }
}

describe("sandbox ledger properties", () => {
  it("property: debits equal credits after any sequence of API calls, and AR/AP equal the open document balances", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const w = await world()
        try {
          await run(w, ops)
          const tb = (await w.api.post("/generate-reports/trial-balance", { endDate: "2099-12-31" })).body
            .data
          expect(tb.totals.debitAmount).toBe(tb.totals.creditAmount)
          const expected = new Map<string, number>()
          const add = (key: string, cents: number) => expected.set(key, (expected.get(key) ?? 0) + cents)
          for (const [path, sign, report] of [
            ["/invoices", 1, "AR"],
            ["/customer-credit-notes", -1, "AR"],
            ["/bills", 1, "AP"]
          ] as const) {
            const rows = (await w.api.post(`${path}/search`, { limit: 1000 })).body.data
            for (const d of rows)
              if (d.status !== "DRAFT" && d.status !== "VOIDED")
                add(`${report}:${d.currencyCode}`, sign * open(d))
          }
          for (const report of ["AR", "AP"] as const) {
            const rows = (
              await w.api.post(`/generate-reports/${report.toLowerCase()}-report`, { endDate: "2099-12-31" })
            ).body.data.rows
            for (const cur of ["SGD", "USD"]) {
              const got = rows
                .filter((r: { currencyCode: string }) => r.currencyCode === cur)
                .reduce(
                  (s: number, r: { outstandingAmount: number }) => s + Math.round(r.outstandingAmount * 100),
                  0
                )
              expect(got).toBe(expected.get(`${report}:${cur}`) ?? 0)
            }
            const sgd = rows.find((r: { currencyCode: string }) => r.currencyCode === "SGD")
            if (sgd !== undefined) expect(sgd.outstandingBaseAmount).toBe(sgd.outstandingAmount)
          }
        } finally {
          await w.sandbox.close()
        }
      }),
      { numRuns: 25, seed: 20240301 }
    )
  })
})
