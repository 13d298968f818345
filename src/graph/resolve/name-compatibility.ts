/**
 * Whether two trigram-similar names can name one thing: the same words in the same order, each
 * pair equal, an inflection of the other ("Babbage" / "Babbages", "Raphaël" / "Raphaël's"), or
 * one slip apart in a word of five letters or more ("Rossum" / "Rosum"). Trigrams alone merged
 * "Document Foundation" into "Foundation Documents" and "Oldstable" into "Oldoldstable".
 */
const INFLECTION = /^(.*?)(?:'s|’s|s|es)$/u

function sameWord(a: string, b: string): boolean {
  if (a === b) return true
  const stem = (w: string) => w.match(INFLECTION)?.[1] ?? w
  if (stem(a) === b || stem(b) === a || stem(a) === stem(b)) return true
  return Math.min(a.length, b.length) >= 5 && withinOneEdit(a, b)
}

/** Levenshtein distance at most 1, without building the matrix. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  let j = 0
  let edits = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++
      j++
      continue
    }
    if (++edits > 1) return false
    if (a.length > b.length) i++
    else if (b.length > a.length) j++
    else {
      i++
      j++
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1
}

/** Both names normalized (normalizeName). */
export function compatibleNames(a: string, b: string): boolean {
  const x = a.split(' ')
  const y = b.split(' ')
  return x.length === y.length && x.every((w, k) => sameWord(w, y[k]))
}
