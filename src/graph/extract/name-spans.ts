/**
 * Proper names in a chunk's sentences, and which of them name the same thing. A name is a run
 * of capitalised terms (with the lower-case particles of names: "Guido van Rossum",
 * "Corporation for National Research Initiatives"), less what only looks like one: a sentence's
 * first word when it is an English word ("Each", "Specifically"), determiners and quantifiers
 * ("The", "Many"), dates, document structure ("Section 1.5"), lists fused by commas. Within a
 * chunk, an acronym in parentheses or made of a name's initials ("FSF"), a person's first or
 * last name ("Guido"), and a name with "Project" after it fold onto the full name, which is kept.
 */

import {
  abbreviation,
  BREAK_BEFORE,
  breaksAfter,
  COMMON_SUFFIX,
  CORPORATE_SUFFIX,
  capitalised,
  functionWord,
  NAME_HEADS,
  nameStart,
  ORG_WORDS,
  PARTICLES,
  possessive,
} from './name-words.js'
import { normalizeName } from './normalize.js'
import { has, knownTag, type Sentence, type Term } from './sentence-terms.js'

export interface Mention {
  sentence: number
  start: number
  /** Exclusive. */
  end: number
  surface: string
}

export interface NamedEntity {
  name: string
  key: string
  kind: string
  mentions: number
}

interface Run {
  start: number
  end: number
}

/** Candidate name runs of one sentence, before validation of the first term. */
function runsOf(s: Sentence): Run[] {
  const runs: Run[] = []
  let i = 0
  while (i < s.length) {
    if (!capitalised(s[i])) {
      i++
      continue
    }
    let end = i + 1
    while (end < s.length && !breaksAfter(s[end - 1], s[end]) && !(possessive(s[end - 1]) && (!capitalised(s[end]) || acronymOwner(s[end - 1])))) {
      const t = s[end]
      const titleWord = functionWord(t) && s[end + 1] !== undefined && capitalised(s[end + 1]) && !functionWord(s[end + 1]) && !breaksAfter(t, s[end + 1])
      if ((capitalised(t) && (!functionWord(t) || titleWord)) || /^\d+(\.\d+)*\+?$/.test(t.text) || CORPORATE_SUFFIX.has(t.normal)) end++
      else if (PARTICLES.has(t.normal) && s[end + 1] && capitalised(s[end + 1]) && !breaksAfter(t, s[end + 1])) end += 2
      else if (NAME_HEADS.has(t.normal)) {
        end++
        break
      } else if (s[end + 1] && NAME_HEADS.has(s[end + 1].normal) && !has(t, 'Verb') && !breaksAfter(t, s[end + 1])) {
        end += 2
        break
      } else break
    }
    runs.push({ start: i, end })
    i = end
  }
  return runs
}

/** "FSF's" in "the FSF's GNU project": an acronym that owns the next name is a name of its own. */
function acronymOwner(t: Term): boolean {
  return /^\p{Lu}{2,}['’]s$/u.test(t.text)
}

function surfaceOf(s: Sentence, start: number, end: number): string {
  let text = ''
  for (let k = start; k < end; k++) text += s[k].text + (k < end - 1 ? s[k].post.replace(/[^,\s]/g, '') || ' ' : '')
  return text
    .replace(/['’]s$/, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Every name mention of the chunk, in order, its first term validated. */
export function findMentions(sentences: readonly Sentence[]): Mention[] {
  const mentions: Mention[] = []
  const lowerWords = new Set<string>()
  // Common nouns the chunk writes in lower case after a determiner ("the recovery", "some options").
  for (const s of sentences) {
    s.forEach((t, i) => {
      if (/^\p{Ll}/u.test(t.text) && !/-/.test(t.post) && has(t, 'Noun') && !has(t, 'Adjective') && has(s[i - 1], 'Determiner')) lowerWords.add(t.normal)
    })
  }
  const raw: { sentence: number; run: Run; initial: boolean }[] = []
  const seenInside = new Set<string>()
  sentences.forEach((s, n) => {
    for (const run of runsOf(s)) {
      const initial = run.start === 0 || /[:“"‘]/.test(`${s[run.start - 1]?.post ?? ''}${s[run.start].pre}`)
      raw.push({ sentence: n, run, initial })
      let from = run.start
      while (from < run.end && !nameStart(s[from], false)) from++
      if (from < run.end && (!initial || from > run.start) && s.slice(from, run.end).some(capitalised))
        seenInside.add(normalizeName(surfaceOf(s, from, run.end)))
    }
  })
  for (const { sentence, run, initial } of raw) {
    const s = sentences[sentence]
    let start = run.start
    const whole = normalizeName(surfaceOf(s, start, run.end))
    const quoted = /[“"‘]/.test(s[run.start].pre) && /[”"’]/.test(s[run.end - 1].post)
    // A sentence's first word is a name when the chunk writes the same name inside a sentence too.
    const opening = initial && !seenInside.has(whole)
    if (!quoted) while (start < run.end && !nameStart(s[start], opening && start === run.start)) start++
    let end = run.end
    while (end > start && (PARTICLES.has(s[end - 1].normal) || has(s[end - 1], 'Date', 'Month'))) end--
    if (end <= start) continue
    // "Version: 2.0-1": a field's label, not a name.
    if (end - start === 1 && /^:/.test(s[start].post) && s[start + 1] !== undefined) continue
    const surface = surfaceOf(s, start, end)
    if (normalizeName(surface).length < 2 || !/\p{L}{2}/u.test(surface) || !s.slice(start, end).some(capitalised)) continue
    if (end - start === 1 && commonWord(s[start], lowerWords)) continue
    // Code that reached the prose ("UID=0", "X=\"`md5sum", "CAP_SYS_MODULE[65"): no name has these.
    if (/[=$_[\]{}<>`|\\]/.test(surface)) continue
    // "Toggle the switch", "Point the cursor": a sentence's first word before a determiner is a verb.
    if (end - start === 1 && initial && start === run.start && has(s[end], 'Determiner') && !/[,;:]/.test(s[start].post)) continue
    mentions.push({ sentence, start, end, surface })
  }
  return mentions
}

/** compromise's lexicon knows the word as anything but a name. */
function englishTag(word: string): boolean {
  const tag = knownTag(word) || knownTag(word.replace(/s$/, ''))
  return tag !== '' && !/Name|Person|Place|Country|City|Organization/.test(tag)
}

/**
 * A capitalised word alone that is an English word rather than a name: a label or a fragment
 * ("Before", "Requires", "Options", "Toggle", "Point", "Recovery"). It is one when the chunk also
 * writes it as a lower-case noun after a determiner, when compromise's lexicon knows it (or its singular) as anything but a
 * name, or when compromise reads it as a verb, gerund, adverb or function word. An all-capital
 * acronym ("PAM", "GRUB") is never one.
 */
function commonWord(t: Term, lowerWords: ReadonlySet<string>): boolean {
  if (/^[\p{Lu}\d]+$/u.test(t.text.replace(/['’]s$/, '')) || /\p{Lu}/u.test(t.text.slice(1)) || /\d/.test(t.text)) return false
  if (has(t, 'Person', 'Place', 'Organization') && !has(t, 'Verb', 'Adjective', 'Gerund')) return false
  const singular = t.root || t.normal
  if (lowerWords.has(t.normal) || lowerWords.has(singular)) return true
  if (t.normal.length >= 4 && (englishTag(t.normal) || englishTag(singular))) return true
  return (has(t, 'Verb', 'Gerund', 'Adverb', 'Conjunction', 'Preposition', 'Determiner', 'Pronoun') && !has(t, 'ProperNoun')) || COMMON_SUFFIX.test(t.normal)
}

const initials = (words: readonly string[]) => words.map((w) => w[0]).join('')

/** `modifierAfter`: the name stands before a common noun it modifies ("Cyril character glyphs"). */
function kindOf(surface: string, terms: readonly Term[], modifierAfter = false): string {
  const words = surface.split(/\s+/)
  if (ORG_WORDS.test(words.at(-1) ?? '') || CORPORATE_SUFFIX.has((words.at(-1) ?? '').toLowerCase())) return 'organisation'
  // An all-capital word is an acronym ("PAM", "ABI"), never a first name.
  const firstName = (t: Term) => has(t, 'FirstName') && !/^\p{Lu}[\p{Lu}\d]+$/u.test(t.text)
  if (words.length > 1 && terms.some(firstName) && terms.every((t) => has(t, 'Person', 'ProperNoun') || PARTICLES.has(t.normal) || abbreviation(t)))
    return 'person'
  if (terms.some((t) => has(t, 'Place', 'Country', 'City'))) return 'place'
  // compromise guesses Organization for any acronym ("GPL", "GRUB"); only its lexicon's own count.
  if (terms.some((t) => /Organization/.test(knownTag(t.normal)))) return 'organisation'
  if (words.length === 1 && terms.some(firstName) && !modifierAfter) return 'person'
  return /\d/.test(surface) ? 'product' : 'concept'
}

function modifiesNoun(s: Sentence, end: number): boolean {
  const next = s[end]
  return (
    next !== undefined && !/[,;:()]/.test(s[end - 1].post) && /^\p{Ll}/u.test(next.text) && has(next, 'Noun') && !has(next, 'Verb', 'Pronoun', 'Preposition')
  )
}

/**
 * The chunk's entities, and for each mention the key of the entity it names (a partial name,
 * acronym or "X Project" folded onto the full name).
 */
export function resolveMentions(sentences: readonly Sentence[], mentions: readonly Mention[]): { entities: NamedEntity[]; keyOf: Map<Mention, string> } {
  const byKey = new Map<string, { name: string; kind: string; words: string[]; count: number; first: number }>()
  mentions.forEach((m, i) => {
    const key = normalizeName(m.surface)
    const e = byKey.get(key)
    if (e) e.count++
    else
      byKey.set(key, {
        name: m.surface,
        kind: kindOf(m.surface, sentences[m.sentence].slice(m.start, m.end), modifiesNoun(sentences[m.sentence], m.end)),
        words: m.surface.split(/\s+/),
        count: 1,
        first: i,
      })
  })
  const alias = new Map<string, string>()
  // An acronym in parentheses right after a name: "Free Software Foundation (FSF)".
  mentions.forEach((m, i) => {
    const next = mentions[i + 1]
    if (!next || next.sentence !== m.sentence || next.start !== m.end || !next.surface.split(/\s+/).some((w) => /^\p{Lu}[\p{Lu}\d&]{1,7}$/u.test(w))) return
    if (BREAK_BEFORE.test(sentences[m.sentence][next.start].pre) || /\(\s*$/.test(sentences[m.sentence][m.end - 1].post))
      alias.set(normalizeName(next.surface), normalizeName(m.surface))
  })
  const multi = [...byKey].filter(([, e]) => e.words.length > 1)
  for (const [key, e] of byKey) {
    if (alias.has(key)) continue
    if (e.words.length === 1 && /^\p{Lu}[\p{Lu}\d]{1,6}$/u.test(e.name)) {
      // Initials of a name in the chunk, or of a run of its words: "GPL" for "GNU General Public License".
      const target = multi.find(([, m]) => {
        const caps = m.words.filter((w) => /^\p{Lu}/u.test(w))
        for (let a = 0; a < caps.length; a++) for (let b = a + 2; b <= caps.length; b++) if (initials(caps.slice(a, b)) === e.name) return true
        return false
      })
      if (target) alias.set(key, target[0])
      continue
    }
    // A shorter form of a name the chunk gave before: "Guido", "PythonLabs team", "Monty Python".
    const partOf = multi.find(([k, m]) => {
      if (k === key || m.words.length <= e.words.length || m.first > e.first) return false
      const bare = m.words.map((w) => w.replace(/['’]s$/, ''))
      const tail = bare.slice(-e.words.length).join(' ').toLowerCase()
      const head = bare.slice(0, e.words.length).join(' ').toLowerCase()
      const short = e.words.join(' ').toLowerCase()
      if (m.kind === 'person') return head === short || tail === short
      if (m.kind === 'organisation' && tail === short) return true
      if (head === short) return e.words.length > 1 || m.words.slice(e.words.length).every((w) => ORG_WORDS.test(w))
      return false
    })
    if (partOf) alias.set(key, partOf[0])
  }
  // "Debian Project" is Debian when the chunk names Debian too.
  for (const [key, e] of multi) {
    if (/^project$/i.test(e.words.at(-1) ?? '')) {
      const base = normalizeName(e.words.slice(0, -1).join(' '))
      if (byKey.has(base) && !alias.has(key)) alias.set(key, base)
    }
  }
  const canonical = (key: string) => {
    let k = key
    for (let hops = 0; alias.has(k) && hops < 4; hops++) k = alias.get(k) as string
    return k
  }
  const entities = new Map<string, NamedEntity>()
  const keyOf = new Map<Mention, string>()
  for (const m of mentions) {
    const key = canonical(normalizeName(m.surface))
    const e = byKey.get(key)
    if (!e) continue
    keyOf.set(m, key)
    const entity = entities.get(key)
    if (entity) entity.mentions++
    else entities.set(key, { name: e.name, key, kind: e.kind, mentions: 1 })
  }
  return { entities: [...entities.values()], keyOf }
}
