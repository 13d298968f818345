/**
 * What a name stands for now, when the text says so: "Currently, stable is a symbolic link to
 * bullseye", "The stable distribution is currently bullseye", "bullseye is the current stable
 * distribution". Each gives "stable be currently bullseye", a single-valued fact
 * (single-valued.ts): two sources that say so undated with different values disagree. Release
 * names are often written lower-case, so these are matched on the text, not on proper names.
 */
import type { Extraction } from './extraction.js'

const SUBJECT = String.raw`(\p{L}[\p{L}-]*(?: \p{L}[\p{L}-]*){0,2})`
const VALUE = String.raw`(\p{L}[\p{L}\d.-]*)`
const LINK = '(?:an? (?:symbolic |permanent symbolic )?link to )?'
/** "Currently, stable is ... bullseye ... and testing is ... bookworm". */
const CURRENTLY_FIRST = new RegExp(String.raw`\bCurrently, (?:the )?${SUBJECT} is ${LINK}${VALUE}`, 'u')
const AND_NEXT = new RegExp(String.raw`\band (?:the )?${SUBJECT} is ${LINK}${VALUE}`, 'gu')
/** "The stable distribution is currently bullseye". */
const CURRENTLY_AFTER = new RegExp(String.raw`(?:^(?:[Tt]he )?|[.;:] (?:[Tt]he )?|\b[Tt]he )${SUBJECT} is currently ${LINK}${VALUE}`, 'gu')
/** "bullseye is the current stable distribution". */
const THE_CURRENT = new RegExp(String.raw`\b${VALUE} is the current ${SUBJECT}(?= and\b|[.,;:)]|$)`, 'gu')

const claim = (subject: string, value: string): Extraction['claims'][number] => ({
  subject: subject.trim(),
  predicate: 'be currently',
  object: value.replace(/[.-]+$/, ''),
  objectIsEntity: true,
})

export function currentValueClaims(block: string): Extraction['claims'] {
  const claims: Extraction['claims'] = []
  for (const sentence of block.split(/(?<!\b(?:i\.e|e\.g)\.)(?<=[.!?])\s+(?=\p{Lu})/u)) {
    const first = sentence.match(CURRENTLY_FIRST)
    if (first?.index !== undefined) {
      claims.push(claim(first[1], first[2]))
      for (const m of sentence.slice(first.index + first[0].length).matchAll(AND_NEXT)) claims.push(claim(m[1], m[2]))
    }
    for (const m of sentence.matchAll(CURRENTLY_AFTER)) claims.push(claim(m[1], m[2]))
    for (const m of sentence.matchAll(THE_CURRENT)) claims.push(claim(m[2], m[1]))
  }
  return claims
}
