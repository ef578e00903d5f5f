/** `GET /search?query=`: one array per category (contacts, invoices, bills, creditNotes, journals), no pagination. */
import { invalid, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { contacts } from "./Contacts.js"
import { docs, KINDS, type DocRecord } from "./DocKinds.js"
import { journals } from "./Journals.js"

const CAP = 50

const docHit = (d: DocRecord) => ({
  resourceId: d.resourceId,
  reference: d.reference,
  businessTransactionType: d.businessTransactionType,
  status: d.status,
  valueDate: d.valueDate,
  contact: d.contact,
  currencyCode: d.currencyCode,
  totalAmount: d.totalAmount
})

/** Registers the universal search. */
export const register = (r: Router, org: Org): void => {
  r.get("/search", (c) => {
    const q = c.query.get("query")
    if (q === null || q.trim() === "")
      throw invalid(c.query.has("q") ? "the parameter is query, not q" : "query is required")
    const needle = q.toLowerCase()
    const has = (s: string | null | undefined) =>
      s !== null && s !== undefined && s.toLowerCase().includes(needle)
    const docsOf = (...ks: Array<keyof typeof KINDS>) =>
      ks
        .flatMap((k) => docs(org, KINDS[k]).values())
        .filter((d) => has(d.reference) || has(d.contact?.name))
        .slice(0, CAP)
        .map(docHit)
    return ok({
      contacts: contacts(org)
        .values()
        .filter((x) => has(x.name) || has(x.email))
        .slice(0, CAP)
        .map((x) => ({ resourceId: x.resourceId, name: x.name, customer: x.customer, supplier: x.supplier })),
      invoices: docsOf("invoices"),
      bills: docsOf("bills"),
      creditNotes: docsOf("customerCreditNotes", "supplierCreditNotes"),
      journals: journals(org)
        .values()
        .filter((j) => has(j.reference))
        .slice(0, CAP)
        .map((j) => ({
          resourceId: j.resourceId,
          reference: j.reference,
          status: j.status,
          valueDate: j.valueDate
        }))
    })
  })
}
