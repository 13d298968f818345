/**
 * The real-prose corpus: Debian's python3.11-doc (the Python documentation's text sources),
 * installed by scripts/fetch-corpus.sh. Missing, a test fails at once with one line saying so.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

export const CORPUS_DIR = process.env.AIZK_CORPUS_DIR ?? '/usr/share/doc/python3.11/html/_sources'

export function corpusDir(): string {
  if (!existsSync(CORPUS_DIR)) {
    throw new Error(`corpus missing: ${CORPUS_DIR} not found; run scripts/fetch-corpus.sh (installs Debian's python3.11-doc)`)
  }
  return CORPUS_DIR
}

export function corpusText(relative: string): string {
  return readFileSync(path.join(corpusDir(), relative), 'utf8')
}

/** Every text source of the corpus, sorted, as paths relative to it. */
export function corpusFiles(): string[] {
  const root = corpusDir()
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.txt')) out.push(path.relative(root, full))
    }
  }
  walk(root)
  return out
}
