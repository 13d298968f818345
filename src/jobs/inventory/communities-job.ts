/**
 * CommunitiesJob (scoped, Sundays 04:00): behind the growth gate, rebuild the set's community
 * hierarchy (src/graph/maintain/communities), then queue RaptorJob for the set when RAPTOR is enabled.
 * The gate counts the set's claims by equality; a skip is reported on the job's completed event,
 * and recorded with the watermark for `aizk status`. The gate, the rebuild and the RAPTOR
 * enqueue share the pass's one transaction. With AIZK_LLM_URL set, the model's community reports
 * are written after that transaction commits, in batches that commit as they go
 * (src/graph/maintain/communities/community-reports.ts): no transaction is open during a model
 * call, and a timeout keeps the rebuild and every batch of reports already stored.
 */
import { runIfGrown } from '../../scope/growth-gate.js'
import { User } from '../../scope/user.js'
import type { JobContext } from '../queue-job.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'
import { RaptorJob, raptorEnabled } from './raptor-job.js'

export class CommunitiesJob extends ScopedScheduledJob {
  static override defaultCron = '0 4 * * 0'
  static override defaultEnabled = true

  override async handle(payload: { scopes: string[] }, ctx: JobContext): Promise<void> {
    await super.handle(payload, ctx)
    if (!ctx.settings.llmUrl) return
    const { reportCommunities } = await import('../../graph/maintain/communities/community-reports.js')
    const reports = await reportCommunities(ctx.pool, User.system(payload.scopes, ctx.settings), ctx.settings, ctx.signal)
    ctx.report?.(reports)
  }

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { buildCommunities } = await import('../../graph/maintain/communities/build-communities.js')
    const threshold = ctx.settings.communitiesGrowthThreshold
    const gate = await runIfGrown(ctx.db, { job: CommunitiesJob.jobName, scopes, threshold }, () => buildCommunities(ctx.db, scopes, ctx.settings, ctx.signal))
    if (!gate.ran) {
      ctx.report?.({ gate: 'skipped', claims: gate.factCount, sinceLastBuild: gate.factCount - gate.previous, threshold })
      return
    }
    let raptorQueued = false
    if (raptorEnabled(ctx.settings)) {
      raptorQueued = Boolean(await RaptorJob.enqueue(ctx.db, { scopes: [...scopes] }, { dedupeKey: RaptorJob.dedupeKey(scopes) }))
    }
    ctx.report?.({ gate: 'ran', claims: gate.factCount, ...gate.result, raptorQueued })
  }
}
