/**
 * Plans the tags: each tracking option used on a migrating line (Xero's `TrackingName1`/`TrackingOption1`,
 * …) becomes one platform tag named `Category: Option`, created once in the tags phase, before the
 * transactions that carry its name in their `tags` (the platform takes tags per transaction, not per line).
 * A tag already in the target is adopted by name at load time, never duplicated.
 */
import * as Bodies from "./Bodies.js"
import { tagName } from "./Lines.js"
import type { PlanContext } from "./PlanContext.js"
import { migrating } from "./RecordIdentity.js"
import type { SourceBooks, SourceTracking } from "./SourceModel.js"
import { creditMigrates } from "./TransactionIdentity.js"
import { append } from "../Multimap.js"

export const planTags = (ctx: PlanContext, books: SourceBooks): void => {
  const uses = new Map<string, Array<string>>()
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
  for (const d of migrating(books.documents)) note(d.lines)
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
        lineage: [...new Set(lineage)].sort().slice(0, 20)
      },
      Bodies.Tag,
      () => ({ body: new Bodies.Tag({ tagName: name }), dependsOn: [] })
    )
  }
}
