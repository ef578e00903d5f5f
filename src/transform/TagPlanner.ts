/**
 * Plans the tags: each tracking option used on a migrating line (Xero's `TrackingName1`/`TrackingOption1`,
 * …) becomes one platform tag named `Category: Option`, created once in the tags phase, before the
 * transactions that carry its name in their `tags` (the platform takes tags per transaction, not per line).
 * A tag already in the target is adopted by name at load time, never duplicated.
 */
import * as Bodies from "./Bodies.js"
import { tagName } from "./Lines.js"
import { surveyOf, TAG_ROWS } from "./DocumentSurvey.js"
import type { PlanContext } from "./PlanContext.js"
import type { Books, SourceTracking } from "./SourceModel.js"
import { creditMigrates } from "./TransactionIdentity.js"
import { append } from "../Multimap.js"

export const planTags = (ctx: PlanContext, books: Books): void => {
  // The migrating documents' tags as the survey gathered them: each one's least rows, which are among the
  // rows kept below.
  const uses = new Map<string, Array<string>>()
  for (const [name, rows] of surveyOf(books).tags) uses.set(name, [...rows])
  const note = (
    lines: ReadonlyArray<{ readonly tracking?: ReadonlyArray<SourceTracking>; readonly lineage: string }>
  ) => {
    for (const l of lines)
      for (const t of l.tracking ?? []) {
        if (t.category.trim() === "" || t.option.trim() === "") continue
        const name = tagName(t)
        append(uses, name, l.lineage)
      }
  }
  for (const c of (books.credits ?? []).filter(creditMigrates)) note(c.lines)
  for (const j of books.journals) note(j.lines)
  for (const [name, lineage] of [...uses].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    ctx.add(
      {
        key: `tag:${name}`,
        phase: "tags",
        kind: "tag",
        naturalKey: name,
        sortKey: name,
        lineage: [...new Set(lineage)].sort().slice(0, TAG_ROWS)
      },
      Bodies.Tag,
      () => ({ body: new Bodies.Tag({ tagName: name }), dependsOn: [] })
    )
  }
}
