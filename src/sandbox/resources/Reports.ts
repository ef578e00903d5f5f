/**
 * Reports computed from the ledger, in base currency:
 * - trial balance `{ startDate?, endDate }`: closing balance per account as at `endDate` (cumulative; `startDate`
 *   is accepted and echoed), zero-balance accounts omitted;
 * - AR / AP `{ endDate }`: open control-account balance per contact and document currency as at `endDate`;
 * - general ledger `{ startDate, endDate, groupBy: ACCOUNT | TRANSACTION | CAPSULE }`: `groups[]`, each with
 *   `openingBalance` (signed, debit positive, ACCOUNT only), `debitAmount`, `creditAmount`, `closingBalance` and
 *   `lines[]` `{ valueDate, businessTransactionResourceId, businessTransactionType, reference, accountResourceId,
 *   accountName, contactResourceId, description, debitAmount, creditAmount, sourceCurrencyCode, sourceAmount }`.
 */
import { Body } from "../Body.js"
import { invalid, ok } from "../Http.js"
import type { PostedLine } from "../Ledger.js"
import { amount } from "../Money.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { accounts, type AccountRecord } from "./Accounts.js"
import { contacts } from "./Contacts.js"

const side = (cents: number) => ({
  debitAmount: amount(Math.max(cents, 0)),
  creditAmount: amount(Math.max(-cents, 0))
})

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byCode = (a: AccountRecord, b: AccountRecord) =>
  text(a.code ?? "\uffff", b.code ?? "\uffff") || text(a.name, b.name)

const lineView = (org: Org, l: PostedLine) => ({
  valueDate: l.valueDate,
  businessTransactionResourceId: l.txId,
  businessTransactionType: l.txType,
  reference: l.reference,
  accountResourceId: l.accountId,
  accountName: accounts(org).get(l.accountId)?.name ?? null,
  contactResourceId: l.contactId ?? null,
  description: l.description ?? null,
  ...side(l.amount),
  sourceCurrencyCode: l.currency,
  sourceAmount: amount(l.sourceAmount)
})

/** Registers the report endpoints. */
export const register = (r: Router, org: Org): void => {
  r.post("/generate-reports/trial-balance", (c) => {
    const b = Body.of(c.body)
    const end = b.reqDate("endDate")
    const start = b.date("startDate") ?? null
    if (start !== null && start > end) throw invalid("startDate must not be after endDate")
    const bal = new Map(org.ledger.balancesAt(end).map((x) => [x.accountId, x.amount]))
    let dr = 0
    let cr = 0
    const rows = accounts(org)
      .values()
      .filter((a) => (bal.get(a.resourceId) ?? 0) !== 0)
      .sort(byCode)
      .map((a) => {
        const v = bal.get(a.resourceId) ?? 0
        if (v > 0) dr += v
        else cr -= v
        return {
          accountResourceId: a.resourceId,
          accountCode: a.code,
          accountName: a.name,
          accountType: a.accountType,
          ...side(v)
        }
      })
    const data = {
      startDate: start,
      endDate: end,
      currencyCode: org.base,
      rows,
      totals: { debitAmount: amount(dr), creditAmount: amount(cr) }
    }
    return ok({ data })
  })

  const aging = (role: "AR" | "AP") => (c: { body: unknown }) => {
    const end = Body.of(c.body).reqDate("endDate")
    const sign = role === "AR" ? 1 : -1
    let total = 0
    const rows = org.ledger
      .openBalances(org.role(role), end)
      .filter((x) => x.base !== 0 || x.source !== 0)
      .map((x) => {
        total += sign * x.base
        return {
          contactResourceId: x.contactId,
          contactName: x.contactId === null ? null : (contacts(org).get(x.contactId)?.name ?? null),
          currencyCode: x.currency,
          outstandingAmount: amount(sign * x.source),
          outstandingBaseAmount: amount(sign * x.base)
        }
      })
      .sort(
        (a, b) =>
          (a.contactName ?? "").localeCompare(b.contactName ?? "") ||
          a.currencyCode.localeCompare(b.currencyCode)
      )
    return ok({
      data: { endDate: end, currencyCode: org.base, rows, totals: { outstandingBaseAmount: amount(total) } }
    })
  }
  r.post("/generate-reports/ar-report", aging("AR"))
  r.post("/generate-reports/ap-report", aging("AP"))

  r.post("/generate-reports/general-ledger", (c) => {
    const b = Body.of(c.body)
    const start = b.reqDate("startDate")
    const end = b.reqDate("endDate")
    const groupBy = b.reqStr("groupBy")
    if (groupBy !== "ACCOUNT" && groupBy !== "TRANSACTION" && groupBy !== "CAPSULE")
      throw invalid("groupBy must be ACCOUNT, TRANSACTION or CAPSULE")
    if (start > end) throw invalid("startDate must not be after endDate")
    const all = org.ledger.linesUpTo(end)
    const inPeriod = all.filter((l) => l.valueDate >= start)
    const groups = new Map<string, { key: Record<string, unknown>; opening: number; lines: PostedLine[] }>()
    const group = (id: string, key: () => Record<string, unknown>) => {
      let g = groups.get(id)
      if (g === undefined) {
        g = { key: key(), opening: 0, lines: [] }
        groups.set(id, g)
      }
      return g
    }
    const accountKey = (id: string) => () => {
      const a = accounts(org).get(id)
      return {
        accountResourceId: id,
        accountCode: a?.code ?? null,
        accountName: a?.name ?? null,
        accountType: a?.accountType ?? null
      }
    }
    if (groupBy === "ACCOUNT")
      for (const l of all)
        if (l.valueDate < start) group(l.accountId, accountKey(l.accountId)).opening += l.amount
    for (const l of inPeriod) {
      const g =
        groupBy === "ACCOUNT"
          ? group(l.accountId, accountKey(l.accountId))
          : groupBy === "TRANSACTION"
            ? group(l.txId, () => ({
                businessTransactionResourceId: l.txId,
                businessTransactionType: l.txType,
                reference: l.reference,
                valueDate: l.valueDate
              }))
            : group("", () => ({ capsuleResourceId: null }))
      g.lines.push(l)
    }
    let dr = 0
    let cr = 0
    const out = Array.from(groups.values()).map((g) => {
      const d = g.lines.reduce((s, l) => s + Math.max(l.amount, 0), 0)
      const k = g.lines.reduce((s, l) => s + Math.max(-l.amount, 0), 0)
      dr += d
      cr += k
      return {
        ...g.key,
        openingBalance: amount(g.opening),
        debitAmount: amount(d),
        creditAmount: amount(k),
        closingBalance: amount(g.opening + d - k),
        lines: g.lines.map((l) => lineView(org, l))
      }
    })
    return ok({
      data: {
        startDate: start,
        endDate: end,
        groupBy,
        currencyCode: org.base,
        groups: out,
        totals: { debitAmount: amount(dr), creditAmount: amount(cr) }
      }
    })
  })
}
