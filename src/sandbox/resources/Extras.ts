/**
 * The spec's rules for resources a migration rarely touches, kept so their error rows behave as documented:
 * tags, custom fields, capsules and capsule types, catalogs, fixed-asset search and scheduled transactions.
 */
import { randomUUID } from "node:crypto"
import { Body } from "../Body.js"
import { ApiError, badRequest, createdResource, invalid, notFound, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { search, type SearchSpec } from "../Search.js"

const knownFault = (what: string) => () => {
  throw new ApiError(500, "internal_server_error", [`internal server error (known platform fault: ${what})`])
}

interface Named {
  readonly resourceId: string
  readonly [k: string]: unknown
}

const scheduledSpec: SearchSpec = {
  fields: {
    resourceId: "string",
    status: "string",
    startDate: "date",
    endDate: "date",
    nextScheduleDate: "date",
    createdAt: "datetime",
    type: "string"
  },
  defaultSort: { field: "startDate", order: "DESC" },
  unsortable: ["createdAt"]
}
const assetSpec: SearchSpec = {
  fields: {
    resourceId: "string",
    name: "string",
    purchaseDate: "date",
    typeName: "string",
    purchaseAmount: "number",
    bookValueNetBookValueAmount: "number",
    depreciationMethod: "string",
    status: "string",
    createdAt: "datetime"
  },
  defaultSort: { field: "purchaseDate", order: "DESC" },
  unsortable: ["createdAt"]
}

const schedule = (b: Body) => {
  if (b.has("frequency") || b.has("interval"))
    throw invalid("the recurrence field is repeat; frequency and interval are not accepted")
  const repeat = b.reqStr("repeat")
  const startDate = b.reqDate("startDate")
  const endDate = b.date("endDate") ?? null
  return {
    status: b.str("status") ?? "ACTIVE",
    startDate,
    endDate,
    interval: repeat,
    nextScheduleDate: startDate
  }
}

/** Registers the extra resources. */
export const register = (r: Router, org: Org): void => {
  const tags = org.store.collection<Named>("tags")
  r.post("/tags", (c) => {
    const b = Body.of(c.body)
    const tagName = b.reqStr("tagName", ["name"])
    const rec = { resourceId: randomUUID(), tagName, name: tagName, createdAt: org.now() }
    tags.put(rec)
    return createdResource({ resourceId: rec.resourceId, createdAt: rec.createdAt })
  })
  r.get("/tags/:id", (c) => {
    const t = tags.get(c.params["id"] ?? "")
    if (t === undefined) throw notFound(`tag ${c.params["id"]} not found`)
    return ok({ data: t })
  })
  r.delete("/tags/:id", (c) => {
    const t = tags.get(c.params["id"] ?? "")
    if (t === undefined) throw notFound(`tag ${c.params["id"]} not found`)
    tags.remove(t.resourceId)
    return ok({ data: { resourceId: t.resourceId, deleted: true } })
  })
  r.post("/tags/search", (c) =>
    ok(
      search(
        tags.values(),
        c.body,
        { fields: { resourceId: "string", tagName: "string", name: "string" } },
        org.maxRows
      )
    )
  )

  const fields = org.store.collection<Named>("customFields")
  r.post("/custom-fields", (c) => {
    const b = Body.of(c.body)
    if (b.has("appliesTo")) throw badRequest("Invalid request body: appliesTo must not be sent")
    const name = b.reqStr("name")
    const rec = {
      resourceId: randomUUID(),
      customFieldName: name,
      name,
      type: b.reqStr("type"),
      printOnDocuments: b.bool("printOnDocuments") ?? false,
      createdAt: org.now()
    }
    fields.put(rec)
    return createdResource({ resourceId: rec.resourceId, createdAt: rec.createdAt })
  })
  r.get("/custom-fields/:id", (c) => {
    const f = fields.get(c.params["id"] ?? "")
    if (f === undefined) throw notFound(`custom field ${c.params["id"]} not found`)
    return ok({ data: f })
  })
  r.put("/custom-fields/:id", knownFault("PUT on custom fields"))

  r.post("/capsules", knownFault("POST on capsules"))
  r.post("/catalogs", knownFault("POST on catalogs"))
  r.put("/capsules/:id", (c) => {
    const b = Body.of(c.body)
    if (!b.has("resourceId") || !b.has("capsuleTypeResourceId"))
      throw invalid("Capsule type not found: a capsule PUT needs resourceId and capsuleTypeResourceId")
    throw notFound(`capsule ${c.params["id"]} not found`)
  })
  const capsuleTypes = org.store.collection<Named>("capsuleTypes")
  for (const p of ["/capsuleTypes", "/capsule-types"]) {
    r.post(p, (c) => {
      const rec = {
        resourceId: randomUUID(),
        displayName: Body.of(c.body).reqStr("displayName", ["name"]),
        createdAt: org.now()
      }
      capsuleTypes.put(rec)
      return createdResource({ resourceId: rec.resourceId, createdAt: rec.createdAt })
    })
    r.post(`${p}/search`, (c) =>
      ok(
        search(
          capsuleTypes.values(),
          c.body,
          { fields: { resourceId: "string", displayName: "string" } },
          org.maxRows
        )
      )
    )
    r.get(`${p}/:id`, (c) => {
      const t = capsuleTypes.get(c.params["id"] ?? "")
      if (t === undefined) throw notFound(`capsule type ${c.params["id"]} not found`)
      return ok({ data: t })
    })
    r.delete(`${p}/:id`, (c) => {
      const t = capsuleTypes.get(c.params["id"] ?? "")
      if (t === undefined) throw notFound(`capsule type ${c.params["id"]} not found`)
      capsuleTypes.remove(t.resourceId)
      return ok({ data: { resourceId: t.resourceId, deleted: true } })
    })
  }

  r.post("/fixed-assets/search", (c) => ok(search([], c.body, assetSpec, org.maxRows)))

  const scheduled = org.store.collection<Named>("scheduled")
  for (const [kind, wrapper] of [
    ["invoices", "invoice"],
    ["bills", "bill"]
  ] as const) {
    r.post(`/scheduled/${kind}`, (c) => {
      const b = Body.of(c.body)
      const s = schedule(b)
      const inner = b.obj(wrapper)
      if (inner === undefined) throw invalid(`${wrapper} is required`)
      inner.reqStr("reference")
      if (inner.bool("saveAsDraft") !== false) throw invalid(`${wrapper}.saveAsDraft must be sent as false`)
      inner.reqDate("valueDate", ["issueDate", "date"])
      const rec = {
        resourceId: randomUUID(),
        type: kind.toUpperCase(),
        ...s,
        [wrapper]: inner.o,
        createdAt: org.now()
      }
      scheduled.put(rec)
      return createdResource({ resourceId: rec.resourceId, createdAt: rec.createdAt })
    })
  }
  r.post("/scheduled/journals", (c) => {
    const b = Body.of(c.body)
    if (b.has("journal")) throw invalid("a scheduled journal is flat; there is no journal wrapper")
    const s = schedule(b)
    const valueDate = b.reqDate("valueDate", ["issueDate", "date"])
    const rec = {
      resourceId: randomUUID(),
      type: "JOURNALS",
      ...s,
      valueDate,
      reference: b.str("reference") ?? null,
      schedulerEntries: b.o["schedulerEntries"] ?? [],
      createdAt: org.now()
    }
    scheduled.put(rec)
    return createdResource({ resourceId: rec.resourceId, createdAt: rec.createdAt })
  })
  r.post("/scheduled-transaction/search", (c) =>
    ok(search(scheduled.values(), c.body, scheduledSpec, org.maxRows))
  )
}
