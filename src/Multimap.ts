/**
 * Maps of lists, filled one value at a time. Appending in place keeps grouping linear: copying a group's
 * list to add each value (`[...(m.get(k) ?? []), v]`) is quadratic in the group's size, which at a
 * 20,000-invoice company turned seconds into minutes.
 */

/** Appends `value` to the list under `key`, creating the list on first use. */
export const append = <K, V>(map: Map<K, Array<V>>, key: K, value: V): void => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** Groups `values` by `keyOf`, keeping their order within each group and the groups' first-seen order. */
export const groupBy = <K, V>(values: Iterable<V>, keyOf: (value: V) => K): Map<K, Array<V>> => {
  const map = new Map<K, Array<V>>()
  for (const value of values) append(map, keyOf(value), value)
  return map
}
