/**
 * CommunitiesJob (scoped, Sundays 04:00): behind the growth gate, rebuild the set's community
 * hierarchy (src/graph/maintain/communities), then queue RaptorJob for the set when RAPTOR is enabled.
 * The gate counts the set's claims by equality; a skip is reported on the job's completed event,
 * and recorded with the watermark for `aizk status`. The gate, the rebuild and the RAPTOR
 * enqueue share the pass's one transaction.
 */
import { runIfGrown } from '../../scope/growth-gate.js'
import { ScopedScheduledJob, type ScopedContext } from '../scheduled-job.js'
import { raptorEnabled, RaptorJob } from './raptor-job.js'

export class CommunitiesJob extends ScopedScheduledJob {
  static override defaultCron = '0 4 * * 0'
  static override defaultEnabled = true

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { buildCommunities } = await import('../../graph/maintain/communities/build-communities.js')
    const threshold = ctx.settings.communitiesGrowthThreshold
    const gate = await runIfGrown(ctx.db, { job: CommunitiesJob.jobName, scopes, threshold }, () =>
      buildCommunities(ctx.db, scopes, ctx.settings, ctx.signal),
    )
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
