/**
 * RaptorJob (scoped, off by default): the set's RAPTOR tree (src/graph/maintain/raptor). It has no cron
 * of its own unless AIZK_RAPTOR_CRON sets one: CommunitiesJob queues it after each rebuild when
 * AIZK_RAPTOR_ENABLED is true, and `aizk enqueue aizk_task_raptor` runs it by hand. Enabled, a
 * worker binds it even with the cron off. It embeds its summaries, so enabling it without
 * AIZK_EMBEDDINGS_URL is a settings error (exit 3), reported with every other setting.
 */
import type { DeclaredSettings } from '../registry.js'
import { type ScopedContext, ScopedScheduledJob } from '../scheduled-job.js'

/** Whether RAPTOR is switched on (the setting alone; its cron may well be off). */
export function raptorEnabled(settings: Readonly<Record<string, unknown>>): boolean {
  return settings.raptorEnabled === true
}

export class RaptorJob extends ScopedScheduledJob {
  static override defaultCron = 'off'
  static override defaultEnabled = false

  /** Bound by workers when switched on, whatever its cron; the scheduler only fires a real cron. */
  static override enabled(settings: Readonly<Record<string, unknown>>): boolean {
    return raptorEnabled(settings)
  }

  static override declareSettings(): DeclaredSettings {
    return {
      // biome-ignore lint/complexity/noThisInStatic: the derived cron/enabled pair of this class
      ...super.declareSettings(),
      check: (settings) =>
        raptorEnabled(settings) && !settings.embeddingsUrl
          ? ['AIZK_RAPTOR_ENABLED: RAPTOR embeds its summaries, so it needs AIZK_EMBEDDINGS_URL (set it, or leave RAPTOR off)']
          : [],
    }
  }

  async execute(scopes: readonly string[], ctx: ScopedContext): Promise<void> {
    const { buildRaptor } = await import('../../graph/maintain/raptor/build-raptor.js')
    const built = await buildRaptor(ctx.db, scopes, ctx.settings, ctx.signal)
    ctx.report?.({ ...built })
  }
}
