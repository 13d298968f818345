/** The environment command tests run the CLI with: their own database and the test job module. */
import path from 'node:path'
import { repoRoot } from '../cli.js'

export const cliJobsModule = path.join(repoRoot, 'test', 'support', 'commands', 'cli-jobs.mjs')

export function cliEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { AIZK_DATABASE_URL: url, AIZK_WORKER_JOB_MODULES: cliJobsModule, ...extra }
}
