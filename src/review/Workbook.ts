/**
 * `review.xlsx`: the matching as the accountant reviews it. One sheet each for Accounts, Tax codes, Contacts
 * and Items (per row: the source record, its file:line and use, the decision, the suggestion, its confidence
 * and reason), a Currencies & rates sheet, a Summary, and a hidden Lists sheet the decision drop-downs read.
 * The decision column (F) is filled with the suggestion where its confidence is at least `confirmBelow`, and
 * left blank, highlighted, where it is lower: a blank decision applies the suggestion but leaves it
 * unconfirmed. `read` turns the decisions back into choices, refusing any that names an unknown target or an
 * incompatible class, with its sheet and cell.
 */
import type ExcelJS from "exceljs"
import { excel, frozenHeader, header as styleHeader } from "../reconcile/XlsxTable.js"
import { normalizeName } from "../transform/Mappings.js"
import type { SourceBooks } from "../transform/SourceModel.js"
import type { TargetSnapshot } from "../transform/TargetSnapshot.js"
import { compatible, sourceRole, targetRole } from "./Classes.js"
import {
  choiceKey,
  choiceText,
  confirmBelow,
  CREATE,
  NO_PROFILE,
  type Choice,
  type Sheet,
  type Suggestion
} from "./Matching.js"

export const FILE = "review.xlsx"

export const SHEETS: ReadonlyArray<Sheet> = ["Accounts", "Tax codes", "Contacts", "Items"]

/** The decision sheets' columns: the decision is F, the source record's identity is J. */
const COLUMNS = [
  { header: "Source code", width: 12 },
  { header: "Source name", width: 36 },
  { header: "Source type / detail", width: 30 },
  { header: "Where", width: 26 },
  { header: "Use", width: 26 },
  { header: "Decision", width: 36 },
  { header: "Suggested", width: 36 },
  { header: "Confidence", width: 11 },
  { header: "Reason", width: 70 },
  { header: "Key (do not edit)", width: 18 }
] as const
export const DECISION_COLUMN = "F"
const KEY_COLUMN = 10

const low = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFFF1CC" } } as const
const missing = { type: "pattern", pattern: "solid", fgColor: { argb: "FFFDE2E0" } } as const

/** The values a sheet's drop-down offers (the target's records and the special words). */
export const listValues = (
  sheet: Sheet,
  snapshot: TargetSnapshot,
  suggestions: ReadonlyArray<Suggestion>
): Array<string> => {
  const uniq = (xs: ReadonlyArray<string>) => [...new Set(xs)]
  switch (sheet) {
    case "Accounts":
      return uniq([CREATE, ...snapshot.accounts.map((a) => a.name)])
    case "Tax codes":
      return uniq([NO_PROFILE, ...snapshot.taxProfiles.map((p) => p.name)])
    case "Contacts":
      return uniq([
        CREATE,
        ...snapshot.contactNames,
        ...suggestions.filter((s) => s.sheet === "Contacts" && s.choice.kind === "create").map((s) => s.label)
      ])
    case "Items":
      return uniq([CREATE, ...snapshot.itemCodes])
  }
}

/** The cell of a suggestion's decision, as `Sheet!F12` (rows in the order `suggest` gives them). */
export const cellOf = (suggestions: ReadonlyArray<Suggestion>, s: Suggestion): string => {
  const row = suggestions.filter((x) => x.sheet === s.sheet).indexOf(s) + 2
  return `${s.sheet}!${DECISION_COLUMN}${row}`
}

export interface Header {
  readonly target: string
  readonly baseCurrency: string
  readonly generatedAt: string
}

/** The workbook for `suggestions` against `snapshot`. */
export const build = (
  books: SourceBooks,
  snapshot: TargetSnapshot,
  suggestions: ReadonlyArray<Suggestion>,
  header: Header,
  Excel: typeof ExcelJS
): ExcelJS.Workbook => {
  const wb = new Excel.Workbook()
  wb.creator = "ledger-migrate"
  const summary = wb.addWorksheet("Summary")
  const lists = wb.addWorksheet("Lists", { state: "hidden" })
  const listRange = new Map<Sheet, string>()
  SHEETS.forEach((sheet, i) => {
    const values = listValues(sheet, snapshot, suggestions)
    values.forEach((v, r) => (lists.getCell(r + 1, i + 1).value = v))
    const letter = String.fromCharCode(65 + i)
    listRange.set(sheet, `Lists!$${letter}$1:$${letter}$${values.length}`)
  })
  for (const sheet of SHEETS) {
    const ws = wb.addWorksheet(sheet, frozenHeader)
    styleHeader(ws, COLUMNS)
    for (const s of suggestions.filter((x) => x.sheet === sheet)) {
      const confirmed = s.confidence >= confirmBelow
      const row = ws.addRow([
        s.code,
        s.label,
        s.detail,
        s.where,
        s.usage,
        confirmed ? choiceText(s.choice) : null,
        choiceText(s.choice) || "(a decision is needed)",
        s.confidence,
        s.reason,
        s.key
      ])
      row.getCell(8).numFmt = "0.00"
      if (!confirmed)
        row.eachCell({ includeEmpty: true }, (cell) => (cell.fill = s.choice.kind === "none" ? missing : low))
      row.getCell(6).dataValidation = {
        type: "list",
        allowBlank: true,
        formulae: [listRange.get(sheet)!],
        showErrorMessage: true,
        errorStyle: "stop",
        errorTitle: "Not a choice",
        error: `Choose from the list: ${sheet === "Tax codes" ? 'a tax profile of the target or "no tax profile"' : `a record of the target or "${CREATE}"`}`
      }
    }
  }
  const rates = wb.addWorksheet("Currencies & rates", frozenHeader)
  styleHeader(rates, [
    { header: "Currency", width: 10 },
    { header: "Documents and credits", width: 22 },
    { header: "Source rates", width: 14 },
    { header: "First rate", width: 12 },
    { header: "Last rate", width: 12 },
    { header: "In the target", width: 30 },
    { header: "Rates already in the target", width: 26 }
  ])
  const used = new Map<string, number>()
  for (const d of [...books.documents, ...(books.credits ?? [])])
    if (d.currency && d.currency !== snapshot.baseCurrency && d.state !== "voided")
      used.set(d.currency, (used.get(d.currency) ?? 0) + 1)
  for (const r of books.rates)
    if (r.currency !== snapshot.baseCurrency && !used.has(r.currency)) used.set(r.currency, 0)
  for (const code of [...used.keys()].sort()) {
    const rs = books.rates
      .filter((r) => r.currency === code)
      .map((r) => r.date)
      .sort()
    const row = rates.addRow([
      code,
      used.get(code)!,
      rs.length,
      rs[0] ?? "",
      rs[rs.length - 1] ?? "",
      snapshot.enabledCurrencies.includes(code) ? "enabled" : "to be enabled by the load",
      snapshot.rates.filter((r) => r.startsWith(`${code}:`)).length
    ])
    if (rs.length === 0) row.eachCell({ includeEmpty: true }, (c) => (c.fill = low))
  }
  summary.columns = [
    { header: "", width: 34 },
    { header: "", width: 16 },
    { header: "", width: 16 },
    { header: "", width: 16 },
    { header: "", width: 16 }
  ]
  summary.addRow(["Review of the matching", header.target])
  summary.getRow(1).font = { bold: true, size: 14 }
  summary.addRow(["Base currency", header.baseCurrency])
  summary.addRow(["Generated", header.generatedAt])
  summary.addRow([
    "How to decide",
    `Choose in column ${DECISION_COLUMN} from the drop-down. Blank (highlighted) rows are below ${confirmBelow.toFixed(2)} confidence: load refuses to start until each is decided, unless --accept-suggestions. Then run plan again.`
  ])
  summary.addRow([])
  const table = summary.addRow([
    "Sheet",
    "Rows",
    "Confidence 1.00",
    `${confirmBelow.toFixed(2)}–0.99`,
    `Below ${confirmBelow.toFixed(2)}`
  ])
  table.font = { bold: true }
  for (const sheet of SHEETS) {
    const rows = suggestions.filter((s) => s.sheet === sheet)
    summary.addRow([
      sheet,
      rows.length,
      rows.filter((s) => s.confidence >= 1).length,
      rows.filter((s) => s.confidence >= confirmBelow && s.confidence < 1).length,
      rows.filter((s) => s.confidence < confirmBelow).length
    ])
  }
  summary.addRow(["Currencies & rates", used.size])
  wb.views = [{ x: 0, y: 0, width: 20000, height: 12000, firstSheet: 0, activeTab: 0, visibility: "visible" }]
  return wb
}

export const write = async (
  path: string,
  books: SourceBooks,
  snapshot: TargetSnapshot,
  suggestions: ReadonlyArray<Suggestion>,
  header: Header
): Promise<void> => {
  await build(books, snapshot, suggestions, header, await excel()).xlsx.writeFile(path)
}

/** A decision the workbook holds: its cell, and the choice it makes. */
export interface Decided {
  readonly cell: string
  readonly choice: Choice
}

/** Reads the decisions of a review workbook; the errors name each refused decision's cell. */
export const read = async (
  path: string,
  snapshot: TargetSnapshot,
  suggestions: ReadonlyArray<Suggestion>
): Promise<{ readonly decisions: Map<string, Decided>; readonly errors: Array<string> }> => {
  const wb = new (await excel()).Workbook()
  await wb.xlsx.readFile(path)
  const decisions = new Map<string, Decided>()
  const errors: Array<string> = []
  const bySheetKey = new Map(suggestions.map((s) => [choiceKey(s.sheet, s.key), s]))
  const accounts = new Map(snapshot.accounts.map((a) => [normalizeName(a.name), a]))
  const profiles = new Map(snapshot.taxProfiles.map((p) => [normalizeName(p.name), p]))
  const contacts = new Map(snapshot.contactNames.map((n) => [normalizeName(n), n]))
  const items = new Map(snapshot.itemCodes.map((c) => [c.trim().toLowerCase(), c]))
  const sourceContacts = new Map(
    suggestions.filter((s) => s.sheet === "Contacts").map((s) => [normalizeName(s.label), s])
  )
  for (const sheet of SHEETS) {
    const ws = wb.getWorksheet(sheet)
    if (!ws) continue
    ws.eachRow((row, r) => {
      if (r === 1) return
      const cell = `${sheet}!${DECISION_COLUMN}${r}`
      const text = row.getCell(DECISION_COLUMN).text.trim()
      if (text === "") return
      const key = row.getCell(KEY_COLUMN).text.trim()
      const s = bySheetKey.get(choiceKey(sheet, key))
      if (!s) {
        errors.push(
          `${cell}: the row's source record (key "${key}" in column J) is not in the staged books; run review again to regenerate the workbook`
        )
        return
      }
      const wanted = normalizeName(text)
      const refuse = (why: string) =>
        errors.push(
          `${cell}: "${text}" for ${s.sheet === "Accounts" ? "account" : sheet === "Tax codes" ? "tax code" : sheet === "Contacts" ? "contact" : "item"} "${s.label}": ${why}`
        )
      let choice: Choice | undefined
      if (sheet === "Accounts") {
        if (wanted === CREATE) {
          const clash = accounts.get(normalizeName(s.label))
          if (clash)
            refuse(`the target already has an account named "${clash.name}"; choose an account instead`)
          else choice = { kind: "create" }
        } else {
          const t = accounts.get(wanted)
          const from = s.classification
          if (!t) refuse(`the target has no such account; choose one from the drop-down or "${CREATE}"`)
          else if (
            from !== undefined &&
            !compatible(from, t.accountType) &&
            !(sourceRole({ name: s.label }) !== undefined && sourceRole({ name: s.label }) === targetRole(t))
          )
            refuse(
              `a ${from} account cannot become "${t.name}", a ${t.accountType} account (incompatible class)`
            )
          else choice = { kind: "adopt", target: t.name }
        }
      } else if (sheet === "Tax codes") {
        if (wanted === NO_PROFILE) choice = { kind: "no-profile" }
        else {
          const p = profiles.get(wanted)
          if (!p)
            refuse(
              `the target has no such tax profile (tax profiles cannot be created); choose one or "${NO_PROFILE}"`
            )
          else choice = { kind: "adopt", target: p.name }
        }
      } else if (sheet === "Contacts") {
        const other = sourceContacts.get(wanted)
        if (contacts.has(wanted)) choice = { kind: "adopt", target: contacts.get(wanted)! }
        else if (wanted === CREATE || wanted === normalizeName(s.label)) {
          const clash = contacts.get(normalizeName(s.label))
          if (clash) refuse(`the target already has a contact named "${clash}"; choose it instead`)
          else choice = { kind: "create" }
        } else if (other && other.choice.kind === "create") choice = { kind: "merge", into: other.label }
        else
          refuse(
            `neither a contact of the target nor a source contact that is created; choose from the drop-down or "${CREATE}"`
          )
      } else {
        if (wanted === CREATE) {
          if (items.has(s.key.trim().toLowerCase()))
            refuse(
              `the target already has item code "${items.get(s.key.trim().toLowerCase())}"; choose it instead`
            )
          else choice = { kind: "create" }
        } else {
          const c = items.get(text.toLowerCase())
          if (!c)
            refuse(`the target has no item with this code; choose one from the drop-down or "${CREATE}"`)
          else choice = { kind: "adopt", target: c }
        }
      }
      if (choice) decisions.set(choiceKey(sheet, key), { cell, choice })
    })
  }
  return { decisions, errors }
}
