/**
 * The names a question may contain, for the trigram ranker: runs of one to three consecutive
 * words, normalized as entity names are, without runs made only of short or common words.
 */
import { normalizeName } from '../extract/normalize.js'

const COMMON = new Set(
  'a an and are as at be by did do does for from had has have how in is it its of on or that the this to was were what when where which who whom whose why with'.split(
    ' ',
  ),
)
const MAX_NAMES = 40

export function questionNames(question: string): string[] {
  const words = question
    .split(/[^\p{L}\p{N}'’./+#-]+/u)
    .map((w) => w.replace(/^[.'’-]+|[.'’?-]+$/g, ''))
    .filter(Boolean)
  const out = new Set<string>()
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const run = words.slice(i, i + n)
      if (run.every((w) => w.length < 3 || COMMON.has(w.toLowerCase()))) continue
      if (COMMON.has(run[0].toLowerCase()) || COMMON.has(run[n - 1].toLowerCase())) continue
      const name = normalizeName(run.join(' '))
      if (name.length >= 3) out.add(name)
    }
  }
  return [...out].slice(0, MAX_NAMES)
}
