/**
 * The routes a simple record resource shares (contacts, items): list, search, `{ data }` GET, create
 * answering `{ data: { resourceId, createdAt } }`, and a full PUT that must echo the path's resourceId.
 */
import { Body } from "../Body.js"
import { createdResource, notFound, ok } from "../Http.js"
import type { Org } from "../Org.js"
import type { Router } from "../Router.js"
import { listing, search, type SearchSpec } from "../Search.js"
import type { Collection, Record0 } from "../Store.js"

export interface RecordResource<R extends Record0 & { readonly createdAt: number }> {
  /** e.g. `/contacts`. */
  readonly path: string
  /** e.g. `contact`, for messages. */
  readonly label: string
  readonly all: Collection<R>
  readonly spec: SearchSpec
  /** Builds a record from a request body (`old` on PUT), refusing invalid ones. */
  readonly read: (org: Org, b: Body, old: R | undefined) => R
}

/** Registers the shared routes; returns the lookup that answers 404 for a missing record. */
export const recordRoutes = <R extends Record0 & { readonly createdAt: number }>(
  r: Router,
  org: Org,
  res: RecordResource<R>
): ((id: string) => R) => {
  const get = (id: string): R => {
    const rec = res.all.get(id)
    if (rec === undefined) throw notFound(`${res.label} ${id} not found`)
    return rec
  }
  r.get(res.path, (c) => ok(listing(res.all.values(), c.query, res.spec, org.maxRows)))
  r.post(`${res.path}/search`, (c) => ok(search(res.all.values(), c.body, res.spec, org.maxRows)))
  r.get(`${res.path}/:id`, (c) => ok({ data: get(c.params["id"] ?? "") }))
  r.post(res.path, (c) => {
    const rec = res.read(org, Body.of(c.body), undefined)
    res.all.put(rec)
    return createdResource({ resourceId: rec.resourceId, createdAt: rec.createdAt })
  })
  r.put(`${res.path}/:id`, (c) => {
    const old = get(c.params["id"] ?? "")
    const b = Body.of(c.body)
    b.requireResourceId(old.resourceId)
    const rec = res.read(org, b, old)
    res.all.put(rec)
    return ok({ data: rec })
  })
  return get
}
