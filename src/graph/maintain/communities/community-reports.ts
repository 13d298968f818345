/**
 * Model-written community reports (GraphRAG's title, summary and findings), made after a
 * rebuild has committed, in batches of `reportBatch` communities: each batch is read in one
 * short transaction, its reports asked `reportConcurrency` at a time with no transaction open,
 * and stored in another short transaction. A job stopped midway (its timeout, a shutdown) keeps
 * every batch stored; the next run continues with the communities still unreported. A rebuild
 * meanwhile replaces the communities, and a report for one that is gone updates nothing.
 */
import type pg from 'pg'
import type { User } from '../../../scope/user.js'
import type { Settings } from '../../../settings.js'
import { mapLimited } from '../../map-limited.js'
import { storeCommunityReports, unreportedCommunities } from '../sql/community-report-sql.js'
import { type DescribeSettings, reportCommunity } from './describe.js'

export type ReportSettings = DescribeSettings & Pick<Settings, 'reportBatch' | 'reportConcurrency'>

export async function reportCommunities(
  pool: pg.Pool,
  user: User,
  settings: ReportSettings,
  signal?: AbortSignal,
): Promise<{ reported: number; kept: number }> {
  const out = { reported: 0, kept: 0 }
  if (!settings.llmUrl) return out
  for (;;) {
    signal?.throwIfAborted()
    const batch = await user.transaction(pool, (db) => unreportedCommunities(db, user.write, settings.reportBatch))
    if (batch.length === 0) return out
    const reports = await mapLimited(batch, settings.reportConcurrency, async (c) => ({
      id: c.id,
      report: c.sentences.length ? await reportCommunity(settings, { names: c.names, size: c.size, sentences: c.sentences }, signal) : null,
    }))
    await user.transaction(pool, (db) => storeCommunityReports(db, user.write, reports))
    for (const r of reports) r.report ? out.reported++ : out.kept++
    if (batch.length < settings.reportBatch) return out
  }
}
