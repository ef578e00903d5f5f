/**
 * The loader's intents, written ahead: the first operation of a page that needs one declares it for itself
 * and for the next `window` pending operations in one durable write, so a wave of sends costs one commit
 * instead of one each. Declaring early is safe — after a crash every declared operation is in doubt and is
 * looked up before anything is sent again. Sending early is not: an operation declared by another's write
 * waits for that write to be durable, since an operation sent while its checkpoint still says `pending` is
 * not looked up after a crash and would be sent twice (invariant 4).
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"

/**
 * The declaration for a page's operations in `order`: `declare(key)` returns once `key`'s intent is durable,
 * writing it (with the next operations `isPending` accepts, up to `window` in all) through `durable` unless
 * an earlier declaration already covers it.
 */
export const make = (
  order: ReadonlyArray<string>,
  isPending: (key: string) => boolean,
  window: number,
  durable: (keys: ReadonlyArray<string>) => Effect.Effect<void>
): ((key: string) => Effect.Effect<void>) => {
  const position = new Map(order.map((key, i) => [key, i]))
  /** Each declared key → the write that declares it, done once that write is durable. */
  const declared = new Map<string, Deferred.Deferred<void>>()
  return (key) =>
    Effect.suspend(() => {
      const pending = declared.get(key)
      if (pending !== undefined) return Deferred.await(pending)
      const written = Deferred.unsafeMake<void>(FiberId.none)
      const batch = [key]
      for (let i = (position.get(key) ?? order.length) + 1; i < order.length && batch.length < window; i++) {
        const next = order[i]!
        if (!declared.has(next) && isPending(next)) batch.push(next)
      }
      for (const k of batch) declared.set(k, written)
      return Effect.intoDeferred(durable(batch), written).pipe(Effect.zipRight(Deferred.await(written)))
    })
}
