/**
 * ArtifactIntegrityJob (system, 06:00 daily): re-verifies integrityBatch (100) originals older
 * than integrityMinAgeDays (30), least recently verified first, re-hashing the stored bytes
 * against the content id. A mismatch or a missing original marks the artifact
 * (integrity_status, counted by `countIntegrity` for `aizk status` and metrics) and writes one
 * JSON log line to stderr. The pass picks its candidates per scope set from the roster and reads
 * each under User.system(its scopes): no tenant's bytes are read past row security.
 */
import type { IntegrityCandidate, IntegrityStatus } from '../../content/integrity.js'
import { scopeRoster } from '../../scope/roster.js'
import { User } from '../../scope/user.js'
import type { Settings } from '../../settings.js'
import { type ScheduledContext, SystemScheduledJob } from '../scheduled-job.js'

export interface IntegrityReport {
  checked: number
  problems: { artifactId: string; contentId: string; scopes: string[]; status: IntegrityStatus }[]
}

function olderFirst(a: IntegrityCandidate, b: IntegrityCandidate): number {
  const va = a.verifiedAt?.getTime() ?? Number.NEGATIVE_INFINITY
  const vb = b.verifiedAt?.getTime() ?? Number.NEGATIVE_INFINITY
  return va - vb || a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id)
}

export class ArtifactIntegrityJob extends SystemScheduledJob {
  static override defaultCron = '0 6 * * *'
  static override defaultEnabled = true

  async execute(ctx: ScheduledContext): Promise<void> {
    await this.verify(ctx)
  }

  async verify(ctx: Pick<ScheduledContext, 'pool' | 'settings' | 'signal' | 'emit'>): Promise<IntegrityReport> {
    const { integrityCandidates, verifyOriginal } = await import('../../content/integrity.js')
    const settings = ctx.settings as Settings
    const limit = settings.integrityBatch
    const minAgeDays = settings.integrityMinAgeDays
    const candidates: IntegrityCandidate[] = []
    for (const scopes of await scopeRoster(ctx.pool, settings)) {
      const user = User.system(scopes, settings)
      candidates.push(...(await user.transaction(ctx.pool, (db) => integrityCandidates(db, scopes, { limit, minAgeDays }))))
    }
    const chosen = candidates.sort(olderFirst).slice(0, limit)
    const report: IntegrityReport = { checked: 0, problems: [] }
    for (const c of chosen) {
      if (ctx.signal?.aborted) break
      const status = await User.system(c.scopes, settings).transaction(ctx.pool, (db) => verifyOriginal(db, settings, c))
      report.checked++
      if (status !== 'ok') {
        report.problems.push({ artifactId: c.id, contentId: c.contentId, scopes: c.scopes, status })
        ctx.emit?.('artifact:integrity', { status, artifactId: c.id, contentId: c.contentId, scopes: c.scopes, storage: c.storage })
      }
    }
    return report
  }
}
