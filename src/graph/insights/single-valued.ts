/** Every predicate may hold one value at a time (the contradiction rule as it stood). */
export function isSingleValuedPredicate(_predicate: string): boolean {
  return true
}
