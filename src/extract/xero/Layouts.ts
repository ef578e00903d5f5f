/** The flat Xero export and import layouts, by header (vendor spelling, `*` marks dropped). */
import type { Layout } from "../Table.js"

const range = (prefix: string, from: number, to: number, suffix = ""): Array<string> =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}${suffix}`)

const address = (p: "PO" | "SA"): Array<string> => [
  `${p}AttentionTo`,
  ...range(`${p}AddressLine`, 1, 4),
  `${p}City`,
  `${p}Region`,
  `${p}PostalCode`,
  `${p}Country`
]

const tracking = ["TrackingName1", "TrackingOption1", "TrackingName2", "TrackingOption2"]

/** Chart of accounts export (= import template). */
export const accounts: Layout = {
  kind: "xero.accounts",
  required: ["Code", "Name", "Type"],
  known: ["Tax Code", "Description", "Dashboard", "Expense Claims", "Enable Payments", "Balance"]
}

/** Contacts export, both header generations (`DefaultTaxBills` and `DefaultTaxBillsName`, `TaxNumberName`). */
export const contacts: Layout = {
  kind: "xero.contacts",
  required: ["ContactName"],
  known: [
    "AccountNumber",
    "EmailAddress",
    "FirstName",
    "LastName",
    ...address("PO"),
    ...address("SA"),
    "PhoneNumber",
    "FaxNumber",
    "MobileNumber",
    "DDINumber",
    "SkypeName",
    "BankAccountName",
    "BankAccountNumber",
    "BankAccountParticulars",
    "TaxNumber",
    "TaxNumberName",
    "AccountsReceivableTaxCodeName",
    "AccountsPayableTaxCodeName",
    "Website",
    "LegalName",
    "Discount",
    "CompanyNumber",
    "DueDateBillDay",
    "DueDateBillTerm",
    "DueDateSalesDay",
    "DueDateSalesTerm",
    "SalesAccount",
    "PurchasesAccount",
    "TrackingName1",
    "SalesTrackingOption1",
    "PurchasesTrackingOption1",
    "TrackingName2",
    "SalesTrackingOption2",
    "PurchasesTrackingOption2",
    "BrandingTheme",
    "DefaultTaxBills",
    "DefaultTaxSales",
    "DefaultTaxBillsName",
    "DefaultTaxSalesName",
    ...[1, 2, 3, 4, 5].flatMap((n) => [
      `Person${n}FirstName`,
      `Person${n}LastName`,
      `Person${n}Email`,
      `Person${n}IncludeInEmail`
    ])
  ]
}

/** Inventory items export (= import template). */
export const items: Layout = {
  kind: "xero.items",
  required: ["ItemCode"],
  known: [
    "ItemName",
    "Quantity",
    "PurchasesDescription",
    "PurchasesUnitPrice",
    "PurchasesAccount",
    "PurchasesTaxRate",
    "SalesDescription",
    "SalesUnitPrice",
    "SalesAccount",
    "SalesTaxRate",
    "InventoryAssetAccount",
    "CostOfGoodsSoldAccount",
    "Status",
    "InventoryType"
  ]
}

/** Manual journals import template. */
export const manualJournals: Layout = {
  kind: "xero.manual_journals",
  required: ["Narration", "Date", "AccountCode", "Amount"],
  known: ["Description", "TaxRate", ...tracking, "Status", "LineAmountType", "ShowOnCashBasisReports"]
}

/** Sales invoices and bills exports (the same layout; `Type` tells them apart). */
export const documentsExport: Layout = {
  kind: "xero.invoices|xero.bills",
  required: ["ContactName", "InvoiceNumber", "InvoiceDate", "Type"],
  known: [
    "EmailAddress",
    ...address("PO").slice(1),
    ...address("SA").slice(1),
    "Reference",
    "DueDate",
    "PlannedDate",
    "Total",
    "TaxTotal",
    "InvoiceAmountPaid",
    "InvoiceAmountDue",
    "InventoryItemCode",
    "Description",
    "Quantity",
    "UnitAmount",
    "Discount",
    "LineAmount",
    "AccountCode",
    "TaxType",
    "TaxAmount",
    ...tracking,
    "Currency",
    "Sent",
    "Status"
  ]
}

/** Bank statement CSV (`Cheque Number`, or `Check Number` in the US). */
export const bankStatement: Layout = {
  kind: "xero.bank_statement",
  required: ["Date", "Amount"],
  known: [
    "Payee",
    "Description",
    "Reference",
    "Cheque Number",
    "Check Number",
    "Analysis Code",
    "Transaction Type"
  ]
}
