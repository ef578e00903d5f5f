/**
 * The built-in fields of common resources, by plural endpoint. A resource not named here gets `name` alone;
 * `--field` replaces these entirely. Money is a number of at least 0 with an ISO 4217 `currency` beside it;
 * references to other resources are uuids named `<resource>Id`; lifecycles are enums (and so list filters).
 */
import type { Field } from "./Fields.js"

const name: Field = { name: "name", type: "string", required: true, description: "Display name" }
const description: Field = { name: "description", type: "string", required: false, description: "Free text" }
const email: Field = { name: "email", type: "email", required: true, description: "Email address" }
const phone: Field = { name: "phone", type: "string", required: false, description: "Phone number" }
const currency: Field = {
  name: "currency",
  type: "string",
  required: true,
  pattern: "^[A-Z]{3}$",
  description: "ISO 4217 currency code, e.g. USD"
}
const money = (field: string, text: string, required = true): Field => ({
  name: field,
  type: "number",
  required,
  minimum: 0,
  description: `${text}, in \`currency\``
})
const reference = (resource: string, required = true): Field => ({
  name: `${resource}Id`,
  type: "uuid",
  required,
  description: `The ${resource} this belongs to`
})
const status = (values: ReadonlyArray<string>): Field => ({
  name: "status",
  type: "string",
  required: true,
  values,
  description: "Lifecycle status"
})

export const vocabulary: ReadonlyMap<string, ReadonlyArray<Field>> = new Map<string, ReadonlyArray<Field>>([
  [
    "users",
    [
      email,
      name,
      {
        name: "role",
        type: "string",
        required: true,
        values: ["admin", "member", "viewer"],
        description: "Access role"
      },
      status(["active", "invited", "disabled"])
    ]
  ],
  [
    "customers",
    [
      name,
      { ...email, required: false },
      phone,
      { name: "company", type: "string", required: false, description: "Company name" },
      status(["active", "inactive"])
    ]
  ],
  [
    "suppliers",
    [
      name,
      { ...email, required: false },
      phone,
      { name: "taxNumber", type: "string", required: false, description: "Tax registration number" },
      status(["active", "inactive"])
    ]
  ],
  [
    "products",
    [
      name,
      { name: "sku", type: "string", required: false, description: "Stock keeping unit" },
      description,
      money("price", "Unit price"),
      currency,
      { name: "stockQuantity", type: "integer", required: false, minimum: 0, description: "Units in stock" },
      reference("category", false),
      status(["active", "draft", "archived"])
    ]
  ],
  [
    "categories",
    [
      name,
      description,
      { ...reference("category", false), name: "parentId", description: "The parent category, if any" }
    ]
  ],
  [
    "orders",
    [
      reference("customer"),
      { name: "orderNumber", type: "string", required: true, description: "Human-readable order number" },
      { name: "orderedAt", type: "date-time", required: true, description: "When the order was placed" },
      money("totalAmount", "Order total"),
      currency,
      status(["pending", "paid", "shipped", "delivered", "cancelled"])
    ]
  ],
  [
    "invoices",
    [
      reference("customer"),
      { name: "invoiceNumber", type: "string", required: true, description: "Invoice number" },
      { name: "issueDate", type: "date", required: true, description: "Date of issue" },
      { name: "dueDate", type: "date", required: true, description: "Date payment is due" },
      money("totalAmount", "Invoice total"),
      currency,
      status(["draft", "sent", "paid", "overdue", "void"])
    ]
  ],
  [
    "payments",
    [
      reference("invoice"),
      money("amount", "Amount paid"),
      currency,
      { name: "paidAt", type: "date-time", required: true, description: "When the payment was made" },
      {
        name: "method",
        type: "string",
        required: true,
        values: ["card", "bank_transfer", "cash", "other"],
        description: "Payment method"
      },
      status(["pending", "completed", "failed", "refunded"])
    ]
  ],
  [
    "accounts",
    [
      { name: "code", type: "string", required: true, description: "Account code in the chart of accounts" },
      name,
      {
        name: "type",
        type: "string",
        required: true,
        values: ["asset", "liability", "equity", "revenue", "expense"],
        description: "Account type"
      },
      { ...currency, required: false },
      status(["active", "archived"])
    ]
  ],
  [
    "transactions",
    [
      reference("account"),
      { name: "date", type: "date", required: true, description: "Transaction date" },
      money("amount", "Amount"),
      currency,
      {
        name: "direction",
        type: "string",
        required: true,
        values: ["debit", "credit"],
        description: "Debit or credit"
      },
      description
    ]
  ]
])

/** The fields of a resource with no built-in vocabulary and no `--field`. */
export const defaultFields: ReadonlyArray<Field> = [name]
