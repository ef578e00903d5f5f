/**
 * Request bodies for the tests of their checks (`BodyChecks`, `CompiledEncoder`): an invoice line and an
 * invoice whose defaults satisfy the platform's schema; override a field to make a case (a field the schema
 * refuses included: the bodies' constructors do not validate).
 */
import * as Bodies from "../../src/transform/Bodies.js"
import { m } from "./Books.js"

export const lineItem = (over: Record<string, unknown> = {}): Bodies.LineItem =>
  new Bodies.LineItem({
    name: "Consulting",
    quantity: m("1"),
    unitPrice: m("10"),
    accountResourceId: "acc-1",
    ...over
  } as never)

export const documentBody = (over: Record<string, unknown> = {}): Bodies.Document =>
  new Bodies.Document({
    reference: "INV-1",
    valueDate: "2025-03-10",
    contactResourceId: "con-1",
    taxInclusion: false,
    saveAsDraft: false,
    lineItems: [lineItem()],
    ...over
  } as never)
