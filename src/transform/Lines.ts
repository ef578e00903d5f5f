/**
 * The lines of a document or credit note as the platform will hold them: each line's account, tax profile,
 * item and tags resolved, and checked so that the target, computing `quantity × unitPrice − discount` and
 * tax by its own profile, arrives at the source's line amounts, tax and total to the cent. A source line
 * discount (a percentage) becomes the platform's flat line `discount`: the amount that takes the rounded
 * gross to the source's `LineAmount`, refused when the percentage does not reproduce that amount.
 */
import * as Bodies from "./Bodies.js"
import * as Money from "./Money.js"
import { PlanProblem, type PlanContext } from "./PlanContext.js"
import type { SourceLine, SourceTracking } from "./SourceModel.js"

const fmt = (m: Money.Money) => Money.toFixed(m)
const hundred = Money.fromNumber(100)

/** The amounts the platform computes for a line: amount = round2(qty × price) − discount, tax by profile rate. */
export const lineAmounts = (
  line: { quantity: Money.Money; unitPrice: Money.Money; discount?: Money.Money },
  vatPercent: number,
  taxInclusive: boolean
) => {
  const amount = Money.sub(
    Money.round2(Money.mul(line.quantity, line.unitPrice)),
    line.discount ?? Money.zero
  )
  const v = Money.fromNumber(vatPercent)
  const tax = taxInclusive
    ? Money.round2(Money.div(Money.mul(amount, v), Money.add(hundred, v), 12))
    : Money.round2(Money.div(Money.mul(amount, v), hundred, 12))
  return { amount, tax }
}

/** The platform's tag name for a tracking option: `Category: Option`. */
export const tagName = (t: SourceTracking): string => `${t.category.trim()}: ${t.option.trim()}`

/** The distinct tag names of some lines, sorted. */
export const tagNames = (lines: ReadonlyArray<{ readonly tracking?: ReadonlyArray<SourceTracking> }>) =>
  [...new Set(lines.flatMap((l) => (l.tracking ?? []).map(tagName)))].sort()

/**
 * The flat discount that turns the line's gross into its `LineAmount`, when its percentage reproduces that
 * amount to the cent (a PlanProblem naming the line when it does not); zero for an undiscounted line.
 */
export const discountAmount = (line: SourceLine): Money.Money => {
  const gross = Money.round2(Money.mul(line.quantity, line.unitAmount))
  if (Money.isZero(line.discount)) return Money.zero
  const expected = Money.round2(
    Money.div(
      Money.mul(Money.mul(line.quantity, line.unitAmount), Money.sub(hundred, line.discount)),
      hundred,
      12
    )
  )
  if (!Money.equals(expected, line.lineAmount)) {
    throw new PlanProblem(
      `line ${line.lineage}: a ${fmt(line.discount)}% discount on ${fmt(line.quantity)} × ${fmt(line.unitAmount)} gives ${fmt(expected)}, the export's LineAmount is ${fmt(line.lineAmount)}`,
      "the platform takes a line discount as an amount, which must reproduce the source's line amount to the cent",
      "correct the line's discount or amount in the source system and export again"
    )
  }
  return Money.sub(gross, line.lineAmount)
}

const checkLine = (ctx: PlanContext, line: SourceLine, taxInclusive: boolean) => {
  const discount = discountAmount(line)
  const tax = ctx.taxProfile(line.taxType)
  const computed = lineAmounts(
    { quantity: line.quantity, unitPrice: line.unitAmount, discount },
    tax?.profile.vatValue ?? 0,
    taxInclusive
  )
  if (!Money.equals(computed.amount, line.lineAmount)) {
    throw new PlanProblem(
      `line ${line.lineage}: ${fmt(line.quantity)} × ${fmt(line.unitAmount)} = ${fmt(computed.amount)}, the export says ${fmt(line.lineAmount)}`,
      "the target computes line amounts from quantity and price",
      "correct the line in the source system and export again"
    )
  }
  if (!Money.equals(computed.tax, line.taxAmount)) {
    throw new PlanProblem(
      `line ${line.lineage}: tax "${line.taxType}" at ${tax?.profile.vatValue ?? 0}% gives ${fmt(computed.tax)}, the export says ${fmt(line.taxAmount)}`,
      "the target computes tax from its own profile; the totals would not reconcile",
      "check the tax mapping for this rate, or correct the tax in the source"
    )
  }
  return { tax, discount }
}

/** What a document's or credit note's body needs from its lines. */
export interface PlannedLines {
  readonly lineItems: readonly [Bodies.LineItem, ...Array<Bodies.LineItem>]
  readonly taxInclusive: boolean
  /** Plan operations the lines refer to (accounts, items). */
  readonly opKeys: ReadonlyArray<string | undefined>
}

/** Builds and checks the lines of a document whose export gives `total` and `taxTotal`. */
export const planLines = (
  ctx: PlanContext,
  doc: {
    readonly lines: ReadonlyArray<SourceLine>
    readonly total: Money.Money
    readonly taxTotal: Money.Money
  }
): PlannedLines => {
  const sumLines = Money.sum(doc.lines.map((l) => l.lineAmount))
  const taxInclusive = !Money.isZero(doc.taxTotal) && Money.equals(sumLines, doc.total)
  const opKeys: Array<string | undefined> = []
  const lineItems = doc.lines.map((line) => {
    const account = ctx.account(line.accountCode)
    const { tax, discount } = checkLine(ctx, line, taxInclusive)
    const item = line.itemCode ? ctx.items.get(line.itemCode) : undefined
    if (line.itemCode && !item) {
      throw new PlanProblem(
        `item ${JSON.stringify(line.itemCode)} on line ${line.lineage} is not in the items export`,
        "a line's item must exist",
        "add the item or clear the item code"
      )
    }
    opKeys.push(account.opKey, item?.opKey)
    return new Bodies.LineItem({
      name: line.description || line.itemCode || account.name,
      quantity: line.quantity,
      unitPrice: line.unitAmount,
      ...(Money.isZero(discount) ? {} : { discount }),
      accountResourceId: account.ref,
      ...(tax ? { taxProfileResourceId: tax.ref } : {}),
      ...(item ? { itemResourceId: item.ref } : {})
    })
  })
  const taxSum = Money.sum(doc.lines.map((l) => l.taxAmount))
  const total = taxInclusive ? sumLines : Money.add(sumLines, taxSum)
  if (!Money.equals(total, doc.total) || !Money.equals(taxSum, doc.taxTotal)) {
    throw new PlanProblem(
      `its lines add up to ${fmt(total)} (tax ${fmt(taxSum)}), the export's Total is ${fmt(doc.total)} (tax ${fmt(doc.taxTotal)})`,
      "the target would hold a different total",
      "export the document again; a line may be missing"
    )
  }
  const [first, ...rest] = lineItems
  if (!first)
    throw new PlanProblem(
      "a document without lines",
      "a finalized document needs lines",
      "export it with its lines"
    )
  return { lineItems: [first, ...rest], taxInclusive, opKeys }
}

/** The tags a transaction carries and the tag operations it depends on (those this plan creates). */
export const tagsOf = (
  ctx: PlanContext,
  lines: ReadonlyArray<{ readonly tracking?: ReadonlyArray<SourceTracking> }>
): { readonly tags: ReadonlyArray<string>; readonly opKeys: ReadonlyArray<string> } => {
  const tags = tagNames(lines)
  return { tags, opKeys: tags.map((t) => `tag:${t}`).filter((k) => ctx.opKeys.has(k)) }
}
