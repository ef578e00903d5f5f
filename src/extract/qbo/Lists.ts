/**
 * QuickBooks Online list exports: account list (`Parent:Child` full names), customer and vendor contact
 * lists, products and services. Flat tables, possibly under a title preamble and over a footer.
 */
import type * as P from "../Profile.js"
import * as Table from "../Table.js"
import * as Footer from "./Footer.js"

const list = (layout: Table.Layout): P.Profile => Table.profile(layout, Footer.skips)

const contact = [
  "Phone numbers",
  "Phone",
  "Email",
  "Full name",
  "Billing address",
  "Shipping address",
  "Account #"
]

/** The list profiles. */
export const profiles: ReadonlyArray<P.Profile> = [
  list({
    kind: "qbo.accounts",
    required: ["Full name", "Type"],
    known: ["Account #", "Detail type", "Description", "Balance", "Currency", "Account name"]
  }),
  list({
    kind: "qbo.customers",
    required: ["Customer"],
    known: [...contact, "Company name", "Open balance", "Notes", "Customer type", "Currency"]
  }),
  list({
    kind: "qbo.vendors",
    required: ["Vendor"],
    known: [...contact, "Company name", "Open balance", "Notes", "Currency", "1099 Tracking"]
  }),
  list({
    kind: "qbo.items",
    required: ["Name", "Type"],
    known: [
      "SKU",
      "Sales Description",
      "Sales Price/Rate",
      "Income Account",
      "Purchase Description",
      "Purchase Cost",
      "Expense Account",
      "Qty on hand",
      "As of date",
      "Inventory Asset Account",
      "Taxable",
      "Reorder point",
      "Category"
    ]
  })
]
