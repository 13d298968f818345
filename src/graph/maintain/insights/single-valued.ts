/**
 * Predicates that hold one value at a time, declared: a person is born in one place, an acronym
 * stands for one expansion. Two live values of one of these for one subject are a contradiction;
 * two values of any other predicate ("Git is a tool", "Git is a version control system",
 * "Samba acts as a name server / a domain controller") are a list, and are left alone.
 */
const SINGLE_VALUED: readonly RegExp[] = [
  /^be born (in|on|at)$/,
  /^die (in|on|at)$/,
  /^be named after$/,
  /^stand for$/,
  /^be (an? )?(abbreviation|acronym|contraction) (of|for)$/,
  /^be (company|subsidiary|capital|successor) of$/,
  /^be headquartered in$/,
  /^be founded (in|on)$/,
  /^be released (in|on)$/,
]

export function isSingleValuedPredicate(predicate: string): boolean {
  const positive = predicate.replace(/^not /, '')
  return SINGLE_VALUED.some((p) => p.test(positive))
}
