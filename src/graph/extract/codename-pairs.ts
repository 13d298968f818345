/**
 * Release codenames written as lists rather than sentences: "1.1 — Rex, 1.2 — Buzz",
 * "buzz for release 1.1, rex for release 1.2" (a sentence about codenames) and
 * "buzz (Debian 1.1) was the spaceman" (a lower-case codename: "POSIX (IEEE 1003.1)" is not
 * one). Each pair is a claim "Rex be codename of Debian 1.1", a single-valued fact (single-valued.ts), so two sources that pair a codename with different
 * versions are a contradiction. Versions in the dash form take the product named before the
 * list ("codenames for Debian versions"), when the block names one.
 */
import type { Extraction } from './extraction.js'

const DASH_PAIR = /\b(\d+(?:\.\d+)?)\s+[—–]\s+(\p{Lu}\p{Ll}+)\b/gu
const PARENTHESIZED = /(?:^|[\s*,;])(\p{Ll}+) \((\p{Lu}\p{L}+) (\d+(?:\.\d+)?)\)/gu
const FOR_RELEASE = /(?:^|[\s:,;])(\p{Ll}+) for releases? (\d+(?:\.\d+)?)(?:\.x)?\b/gu
const PRODUCT_BEFORE_LIST = /codenames?\W+(?:\w+\s+){0,2}(\p{Lu}\p{L}+)\s+(?:versions|releases)/u

const capitalized = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)

export function codenameClaims(block: string): Extraction['claims'] {
  const claims: Extraction['claims'] = []
  const add = (codename: string, release: string) =>
    claims.push({ subject: capitalized(codename), predicate: 'be codename of', object: release, objectIsEntity: true })
  const product = block.match(PRODUCT_BEFORE_LIST)?.[1]
  if (product) for (const m of block.matchAll(DASH_PAIR)) add(m[2], `${product} ${m[1]}`)
  for (const m of block.matchAll(PARENTHESIZED)) add(m[1], `${m[2]} ${m[3]}`)
  if (/\bcodenames?\b/.test(block)) for (const m of block.matchAll(FOR_RELEASE)) add(m[1], `release ${m[2]}`)
  return claims
}
