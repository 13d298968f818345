/**
 * Debian documentation packages for tests that need real prose with facts of their own (the
 * leaders of Debian, from debian-history), unpacked into the user's cache by
 * `scripts/fetch-corpus.sh --eval`, which runs here on first use. Returns the package's folder, or
 * the reason it is missing, for the test to skip with.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export function debianPackageDir(pkg: string): { dir: string } | { missing: string } {
  const cache = process.env.AIZK_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'aizk')
  const dir = path.join(cache, 'debs', pkg)
  if (existsSync(path.join(dir, '.complete'))) return { dir }
  const script = fileURLToPath(new URL('../../../scripts/fetch-corpus.sh', import.meta.url))
  let reason = ''
  try {
    execFileSync('bash', [script, '--eval'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (err) {
    // The script prints every folder it unpacked before the one it could not fetch.
    reason = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim()
  }
  return existsSync(path.join(dir, '.complete'))
    ? { dir }
    : { missing: `${pkg} is not in ${cache}/debs (scripts/fetch-corpus.sh --eval: ${reason || 'no folder'})` }
}
