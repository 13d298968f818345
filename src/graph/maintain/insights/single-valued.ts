/**
 * Predicates that hold one value at a time, declared: a person is born in one place, an acronym
 * stands for one expansion, an organisation has one leader ("named after" is not: Debian is named
 * after Debra and Ian). Two live values of one of these are a
 * contradiction unless time orders them: a value that replaced another at a known date is a
 * supersession (timelineOf). Any other predicate may hold several values at once ("Git is a tool",
 * "Git is a version control system", "Samba acts as a name server / a domain controller"): a list,
 * left alone.
 */
const SINGLE_VALUED: readonly RegExp[] = [
  /^be born (in|on|at)$/,
  /^die (in|on|at)$/,
  /^stand for$/,
  /^be (an? )?(abbreviation|acronym|contraction) (of|for)$/,
  /^be (company|subsidiary|capital|successor) of$/,
  /^be headquartered in$/,
  /^be founded (in|on)$/,
  /^be released (in|on)$/,
  /^be (the )?codename (of|for)$/,
  /^be currently$/,
]

/** Single-valued on the object's side: "X leads Debian" — Debian has one leader at a time. */
const SINGLE_VALUED_OBJECT: readonly RegExp[] = [/^lead$/, /^be led by$/, /^head$/, /^chair$/]

export function isSingleValuedPredicate(predicate: string): boolean {
  const positive = predicate.replace(/^not /, '')
  return SINGLE_VALUED.some((p) => p.test(positive))
}

export function isSingleValuedForObject(predicate: string): boolean {
  return SINGLE_VALUED_OBJECT.some((p) => p.test(predicate))
}

/** The declared patterns as regular expressions PostgreSQL reads alike (plain ERE), for the pass's SQL. */
export function singleValuedPatterns(): { subject: string[]; object: string[] } {
  return { subject: SINGLE_VALUED.map((r) => r.source), object: SINGLE_VALUED_OBJECT.map((r) => r.source) }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** A claim's date ("1993", "April 2001", "June 17th, 1996") as a sortable number, or undefined. */
export function dateOrder(when: string | undefined): number | undefined {
  if (!when) return undefined
  const year = when.match(/\b(1[89]\d\d|20\d\d)\b/)
  if (!year) return undefined
  const month = MONTHS.findIndex((m) => new RegExp(`\\b${m}`, 'i').test(when))
  return Number(year[1]) * 100 + (month >= 0 ? month + 1 : 0)
}

export type Timeline = { kind: 'supersession'; order: string[] } | { kind: 'contradiction'; values: string[] } | { kind: 'none' }

/**
 * What the values of one single-valued fact say together. Values with distinct dates follow one
 * another (a supersession, earliest first); two or more values that no date separates (undated,
 * or dated alike) are a contradiction, unless there are more than `maxObjects` of them: a list.
 */
export function timelineOf(values: readonly { value: string; when?: string }[], maxObjects: number): Timeline {
  const firstDate = new Map<string, number | undefined>()
  for (const { value, when } of values) {
    const d = dateOrder(when)
    const seen = firstDate.get(value)
    firstDate.set(value, seen === undefined ? d : d === undefined ? seen : Math.min(seen, d))
  }
  if (firstDate.size < 2) return { kind: 'none' }
  const undated = [...firstDate].filter(([, d]) => d === undefined).map(([v]) => v)
  const byDate = new Map<number, string[]>()
  for (const [v, d] of firstDate) if (d !== undefined) byDate.set(d, [...(byDate.get(d) ?? []), v])
  const tied = [...byDate.values()].filter((vs) => vs.length > 1).flat()
  const clash = [...undated, ...tied]
  if (clash.length >= 2 && clash.length <= maxObjects) return { kind: 'contradiction', values: clash }
  const dated = [...byDate].sort((a, b) => a[0] - b[0]).flatMap(([, vs]) => vs)
  if (dated.length >= 2) return { kind: 'supersession', order: dated }
  return { kind: 'none' }
}
