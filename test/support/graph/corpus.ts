/**
 * The real-prose corpus: Debian's python3.11-doc (the Python documentation's text sources),
 * unpacked into the user's cache by scripts/fetch-corpus.sh, which runs on first use here too;
 * AIZK_CORPUS_DIR names another folder. Missing, a test fails at once with the script's one line.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

let found: string | undefined

export function corpusDir(): string {
  found ??= process.env.AIZK_CORPUS_DIR ?? fetchCorpus()
  if (!existsSync(found)) throw new Error(`corpus missing: ${found} not found; run scripts/fetch-corpus.sh or set AIZK_CORPUS_DIR`)
  return found
}

function fetchCorpus(): string {
  const script = fileURLToPath(new URL('../../../scripts/fetch-corpus.sh', import.meta.url))
  try {
    return execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '').trim()
    throw new Error(`corpus missing: ${stderr || (err as Error).message}`)
  }
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
